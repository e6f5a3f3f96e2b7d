/* atomfuzz external target ABI: how atomfuzz runs a case on your executor.
 *
 * Build a shared library that defines the four functions below and run
 *   atomfuzz fuzz --target=ext:./libmine.so[:OPTIONS] ...
 * atomfuzz loads the library with dlopen() in a child process (a crash, a
 * hang or an out-of-memory of the library is a finding, never the end of
 * the campaign), calls create() once, run() for every case, destroy() when
 * done. Plain C99; nothing else to link. docs/external-targets.md has more.
 *
 * Memory: everything in an atomfuzz_case belongs to atomfuzz and lives only
 * for the run() call. Everything the library puts in an atomfuzz_outcome
 * (message, UAV words, events) belongs to the library and must stay valid
 * until the next run() or destroy() on the same handle; atomfuzz copies it
 * out right after run() returns, and checks every count against the case
 * before it reads: a count it does not expect makes the outcome rejected.
 *
 * Numbering follows the DXBC token format (spec 4.4-4.6), so a library that
 * already decodes DXBC can reuse its tables. */
#ifndef ATOMFUZZ_TARGET_H_
#define ATOMFUZZ_TARGET_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ATOMFUZZ_TARGET_ABI_VERSION 1u

/* ---- The case ---------------------------------------------------------- */

/* Register files: the DXBC operand types. */
enum {
  ATOMFUZZ_FILE_TEMP = 0,                  /* r# */
  ATOMFUZZ_FILE_INDEXABLE_TEMP = 3,        /* x#[index] */
  ATOMFUZZ_FILE_IMMEDIATE = 4,             /* l(...) */
  ATOMFUZZ_FILE_NULL = 13,                 /* null */
  ATOMFUZZ_FILE_UAV = 30,                  /* u# */
  ATOMFUZZ_FILE_TGSM = 31,                 /* g# */
  ATOMFUZZ_FILE_THREAD_ID = 32,            /* vThreadID */
  ATOMFUZZ_FILE_GROUP_ID = 33,             /* vThreadGroupID */
  ATOMFUZZ_FILE_THREAD_IN_GROUP = 34,      /* vThreadIDInGroup */
  ATOMFUZZ_FILE_THREAD_IN_GROUP_FLAT = 36, /* vThreadIDInGroupFlattened */
  ATOMFUZZ_FILE_NUMBER = 255               /* a bare number in a declaration */
};

/* Component selection. */
enum {
  ATOMFUZZ_SELECT_NONE = 0,    /* no components (u#, g#, null as target) */
  ATOMFUZZ_SELECT_MASK = 1,    /* destination write mask in `mask` */
  ATOMFUZZ_SELECT_SWIZZLE = 2, /* source swizzle in `swizzle` */
  ATOMFUZZ_SELECT_ONE = 3      /* one source component, swizzle[0] */
};

typedef struct atomfuzz_operand {
  uint32_t file;         /* ATOMFUZZ_FILE_* */
  uint32_t index;        /* register number; the number for FILE_NUMBER */
  uint32_t has_relative; /* x#[r<relative_temp>.<component> + offset] */
  uint32_t relative_temp;
  uint32_t relative_component; /* 0..3 = x..w */
  uint32_t offset;             /* x#[offset], and dcl_indexableTemp's size */
  uint32_t selection;          /* ATOMFUZZ_SELECT_* */
  uint32_t mask;               /* bit 0 = x ... bit 3 = w */
  uint8_t swizzle[4];          /* components 0..3 */
  uint32_t value_count;        /* immediates: 1 or 4 */
  uint32_t values[4];          /* immediates, as bits */
} atomfuzz_operand;

typedef struct atomfuzz_instruction {
  uint32_t opcode;       /* DXBC opcode token number (spec 4.5), e.g. 180 =
                            imm_atomic_iadd; 31 is if, see test_nonzero */
  uint32_t test_nonzero; /* _nz forms (if, breakc, continuec, retc) */
  uint32_t operand_count;
  const atomfuzz_operand* operands;
  uint32_t sync_flags;    /* sync: 1 _t, 2 _g, 4 _ugroup, 8 _uglobal */
  uint32_t global_flags;  /* dcl_globalFlags bits */
  uint32_t glc, opc;      /* dcl_uav_*: globally coherent, ordered count */
  uint32_t dim;           /* dcl_uav_typed: DXBC resource dimension */
  uint32_t types[4];      /* dcl_uav_typed: DXBC return types */
  uint32_t has_indexable; /* ld_* on u#: _indexable(dim, stride)(types) */
  uint32_t indexable_dim, indexable_stride;
  uint32_t indexable_types[4];
} atomfuzz_instruction;

enum { ATOMFUZZ_RAW = 0, ATOMFUZZ_STRUCTURED = 1, ATOMFUZZ_TYPED = 2 };
enum { ATOMFUZZ_R32_UINT = 0, ATOMFUZZ_R32_SINT = 1, ATOMFUZZ_R32_FLOAT = 2 };

/* A UAV bound to u<slot>; the view is the whole resource. */
typedef struct atomfuzz_resource {
  uint32_t slot;
  uint32_t kind;           /* ATOMFUZZ_RAW / _STRUCTURED / _TYPED */
  uint32_t stride;         /* structured: bytes per structure */
  uint32_t elements;       /* structured: structures */
  uint32_t dim;            /* typed: DXBC resource dimension (1 buffer, 2 tex1d,
                              3 tex2d, 5 tex3d, 7 tex1d array, 8 tex2d array) */
  uint32_t format;         /* typed: ATOMFUZZ_R32_* */
  uint32_t size[3];        /* typed: width, height or layers, depth or slices */
  uint32_t has_counter;    /* a hidden counter (alloc / consume) */
  uint32_t counter;        /* its initial value */
  uint32_t word_count;     /* 32-bit words of the view */
  const uint32_t* initial; /* word_count words, x fastest */
} atomfuzz_resource;

typedef struct atomfuzz_case {
  uint32_t groups[3]; /* Dispatch(x, y, z) */
  uint32_t resource_count;
  const atomfuzz_resource* resources; /* sorted by slot */
  uint32_t instruction_count;
  const atomfuzz_instruction* instructions; /* declarations first */
  /* The same shader as a cs_5_0 DXBC container (ISGN, OSGN, SHEX, exact
   * checksum), what a translator such as vkd3d-shader consumes; NULL (size
   * 0) only for a program atomfuzz cannot encode. */
  const uint8_t* dxbc;
  size_t dxbc_size;
  uint32_t want_trace; /* atomfuzz would like atomic events (see below) */
} atomfuzz_case;

/* ---- The outcome ------------------------------------------------------- */

enum {
  ATOMFUZZ_STATUS_OK = 0,
  ATOMFUZZ_STATUS_REJECTED = 1, /* the executor cannot run this case */
  ATOMFUZZ_STATUS_CRASHED = 2,  /* e.g. a device lost */
  ATOMFUZZ_STATUS_TIMED_OUT = 3,
  ATOMFUZZ_STATUS_BUDGET_EXCEEDED = 4 /* the executor's own step budget */
};

/* How an atomic's address resolved (spec 1.3). */
enum {
  ATOMFUZZ_ADDRESS_IN_BOUNDS = 0,
  ATOMFUZZ_ADDRESS_SKIP = 1,       /* out of bounds */
  ATOMFUZZ_ADDRESS_UAV_POISON = 2, /* misaligned, or past the stride */
  ATOMFUZZ_ADDRESS_TGSM_POISON = 3,
  ATOMFUZZ_ADDRESS_UNDEFINED = 4
};

/* One dynamic atomic. The judge matches events to the spec's atomics by
 * (group, thread, instruction, occurrence) and checks `returned`; an
 * executor that cannot observe returned values sets has_returned 0. */
typedef struct atomfuzz_event {
  uint32_t group[3];
  uint32_t thread[3];   /* vThreadIDInGroup */
  uint32_t instruction; /* index into atomfuzz_case.instructions */
  uint32_t occurrence;  /* earlier executions of it by this thread */
  uint32_t file;        /* ATOMFUZZ_FILE_UAV or ATOMFUZZ_FILE_TGSM */
  uint32_t slot;        /* u# or g# */
  uint32_t word;        /* resolved word index (in bounds) */
  uint32_t address;     /* ATOMFUZZ_ADDRESS_* */
  uint32_t src0, src1;  /* value, and cmp_exch's new value */
  uint32_t has_returned;
  uint32_t returned; /* the word before the atomic (consume: after) */
} atomfuzz_event;

/* Final state of one UAV, one per case resource, in the same order. */
typedef struct atomfuzz_uav {
  uint32_t slot;
  uint32_t word_count; /* must equal the resource's word_count */
  const uint32_t* words;
  uint32_t counter; /* read only when the resource has a counter */
} atomfuzz_uav;

typedef struct atomfuzz_outcome {
  uint32_t status;       /* ATOMFUZZ_STATUS_* */
  const char* message;   /* why (rejected, crashed...), not NUL-terminated */
  uint32_t message_size; /* bytes; atomfuzz keeps at most 65536 */
  uint32_t uav_count;    /* = resource_count when status is OK */
  const atomfuzz_uav* uavs;
  uint32_t has_trace;   /* 1: `events` lists every atomic that ran */
  uint32_t event_count; /* at most 4194304 */
  const atomfuzz_event* events;
} atomfuzz_outcome;

/* ---- The functions a library defines ----------------------------------- */

/* Returns ATOMFUZZ_TARGET_ABI_VERSION; atomfuzz refuses another value. */
uint32_t atomfuzz_target_abi_version(void);

/* `options` is what follows the path in --target=ext:PATH:OPTIONS ("" if
 * none). Returns NULL on failure, with a NUL-terminated reason written to
 * `error` (at most error_size bytes, terminator included). */
void* atomfuzz_target_create(const char* options, char* error,
                             size_t error_size);

/* Runs one case. Returns 0 when `outcome` is filled (whatever its status),
 * nonzero when the library failed to run it at all (outcome->message may
 * say why). atomfuzz zeroes *outcome before the call. */
int atomfuzz_target_run(void* handle, const atomfuzz_case* c,
                        atomfuzz_outcome* outcome);

void atomfuzz_target_destroy(void* handle);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ATOMFUZZ_TARGET_H_ */
