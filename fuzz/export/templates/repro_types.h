/* The data an atomfuzz reproducer carries: the case's UAVs, its dispatch,
 * and the final values the spec allows. Emitted before the shader words and
 * before repro_check.c and the API part. C99, no atomfuzz needed. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The kinds, dimensions and formats of a case file's [uav] (DXBC's codes). */
enum { KIND_RAW = 0, KIND_STRUCTURED = 1, KIND_TYPED = 2 };
enum {
  DIM_BUFFER = 1,
  DIM_TEXTURE1D = 2,
  DIM_TEXTURE2D = 3,
  DIM_TEXTURE3D = 5,
  DIM_TEXTURE1DARRAY = 7,
  DIM_TEXTURE2DARRAY = 8
};
enum { FORMAT_R32_UINT = 0, FORMAT_R32_SINT = 1, FORMAT_R32_FLOAT = 2 };

struct repro_uav {
  unsigned slot; /* u# */
  unsigned kind, dim, format;
  unsigned stride;   /* structured: bytes per element */
  unsigned elements; /* structured: elements in the view */
  unsigned words;    /* 32-bit words of the view (all kinds) */
  unsigned size[3];  /* typed: width, then height or array size, then depth */
  int has_counter;   /* a hidden counter (structured) */
  uint32_t counter;  /* its initial value */
  int declared;      /* the shader declares it: bind it (else untouched) */
  const uint32_t* init; /* `words` words, x fastest, then y, then z/slice */
};

/* One expectation: the words first..last of u`slot` (or its counter) must
 * each be one of `values` (one value: exactly that). */
struct repro_check {
  unsigned slot;
  int is_counter;
  unsigned first, last;
  unsigned count;
  const uint32_t* values; /* sorted */
};

/* What the run left: each UAV's words (same order as repro_uavs) and
 * counter. Filled by the API part. */
struct repro_result {
  uint32_t* words[64];
  uint32_t counters[64];
};
