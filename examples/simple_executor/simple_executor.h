/* A minimal external executor for atomfuzz: one thread at a time, in order,
 * each running until it returns or reaches a group barrier. A sequential
 * run is one legal serialization of the atomics (spec 2.1), so atomfuzz's
 * judge must find every outcome allowed. Shared by the two files. */
#ifndef SIMPLE_EXECUTOR_H_
#define SIMPLE_EXECUTOR_H_

#include <stdint.h>

#include "atomfuzz/target.h"

/* One addressable memory: a UAV or a g#. */
typedef struct se_memory {
  int present;
  uint32_t kind;  /* ATOMFUZZ_RAW / _STRUCTURED / _TYPED */
  uint32_t words; /* total */
  uint32_t stride, elements;
  uint32_t width; /* typed address components */
  uint32_t size[3];
  int float_format;
  uint32_t* data;
  uint32_t* counter; /* NULL without a hidden counter */
} se_memory;

#define SE_MAX_TGSM 8192

typedef struct se_run {
  const atomfuzz_case* c;
  se_memory uav[64];
  se_memory* tgsm; /* SE_MAX_TGSM of them: g0..g8191 (spec 1.8) */
  /* The trace, grown as atomics run. */
  atomfuzz_event* events;
  uint32_t event_count, event_capacity;
  int out_of_memory;
  int budget_exceeded;
  /* The "lost-alloc" fault: every second alloc keeps the counter as it was.
   * The "dup-alloc" fault: every second alloc returns the index the alloc
   * before it returned, though the counter counts it. */
  int lost_alloc;
  int dup_alloc;
  uint32_t allocs;
} se_run;

/* Runs the whole dispatch. Returns 0, or -1 with `why` set for a case it
 * cannot run (reported as rejected). */
int se_interpret(se_run* run, const char** why);

#endif /* SIMPLE_EXECUTOR_H_ */
