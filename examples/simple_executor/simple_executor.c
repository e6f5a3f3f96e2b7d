/* The atomfuzz ABI of the simple executor (include/atomfuzz/target.h).
 * Build:  cc -shared -fPIC -O2 -I include -o libsimple_executor.so \
 *             examples/simple_executor/[a-z]*.c
 * Options (the text after ext:PATH:, or $SIMPLE_EXECUTOR_FAULT), words
 * joined by commas: "crash", "hang" or "abort" make it fail that way on
 * every case that holds an imm_atomic_cmp_exch, to show what atomfuzz does
 * with a broken executor; "notrace" reports no atomics, as an executor
 * that sees only final memory; "lost-alloc" makes every second
 * imm_atomic_alloc of a run forget its increment, as a counter updated
 * without atomicity would (a wrong value for the judge to catch);
 * "dup-alloc" makes every second one hand out the index before again while
 * the counter still counts it (a right counter, a struct nobody fills). */
#include "simple_executor.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum fault { FAULT_NONE, FAULT_CRASH, FAULT_HANG, FAULT_ABORT };

typedef struct handle {
  enum fault fault;
  int no_trace;
  int lost_alloc;
  int dup_alloc;
  /* The outcome's storage, kept until the next run or destroy. */
  atomfuzz_uav uavs[64];
  uint32_t* words[64];
  atomfuzz_event* events;
  char message[256];
} handle;

uint32_t atomfuzz_target_abi_version(void) {
  return ATOMFUZZ_TARGET_ABI_VERSION;
}

/* One option word (`len` bytes at `word`) into `h`; 0 if unknown. */
static int take_option(handle* h, const char* word, size_t len) {
#define IS(name) (len == sizeof name - 1 && !strncmp(word, name, len))
  if (IS("crash"))
    h->fault = FAULT_CRASH;
  else if (IS("hang"))
    h->fault = FAULT_HANG;
  else if (IS("abort"))
    h->fault = FAULT_ABORT;
  else if (IS("notrace"))
    h->no_trace = 1;
  else if (IS("lost-alloc"))
    h->lost_alloc = 1;
  else if (IS("dup-alloc"))
    h->dup_alloc = 1;
  else
    return 0;
#undef IS
  return 1;
}

void* atomfuzz_target_create(const char* options, char* error,
                             size_t error_size) {
  handle* h;
  const char* mode =
      options && options[0] ? options : getenv("SIMPLE_EXECUTOR_FAULT");
  h = calloc(1, sizeof *h);
  if (!h) {
    snprintf(error, error_size, "out of memory");
    return NULL;
  }
  while (mode && mode[0]) {
    const char* comma = strchr(mode, ',');
    const size_t len = comma ? (size_t)(comma - mode) : strlen(mode);
    if (!take_option(h, mode, len)) {
      snprintf(error, error_size,
               "unknown option '%.*s' (expected crash, hang, abort, notrace, "
               "lost-alloc or dup-alloc)",
               (int)len, mode);
      free(h);
      return NULL;
    }
    mode = comma ? comma + 1 : NULL;
  }
  return h;
}

static void release(handle* h) {
  for (int i = 0; i < 64; ++i) {
    free(h->words[i]);
    h->words[i] = NULL;
  }
  free(h->events);
  h->events = NULL;
}

void atomfuzz_target_destroy(void* opaque) {
  if (!opaque) return;
  release(opaque);
  free(opaque);
}

static void inject_fault(enum fault fault, const atomfuzz_case* c) {
  int has_cmp_exch = 0;
  for (uint32_t i = 0; i < c->instruction_count; ++i) {
    if (c->instructions[i].opcode == 185) has_cmp_exch = 1;
  }
  if (!has_cmp_exch) return;
  if (fault == FAULT_CRASH) {
    int* volatile nowhere = NULL;
    *nowhere = 1; /* SIGSEGV */
  }
  if (fault == FAULT_HANG) {
    volatile unsigned spin = 0;
    for (;;) ++spin;
  }
  if (fault == FAULT_ABORT) abort();
}

static uint32_t typed_width(uint32_t dim) {
  switch (dim) {
    case 1:
    case 2: return 1; /* buffer, texture1d */
    case 3:
    case 7: return 2;  /* texture2d, texture1d array */
    default: return 3; /* texture3d, texture2d array */
  }
}

static void finish(handle* h, atomfuzz_outcome* out, uint32_t status,
                   const char* why) {
  out->status = status;
  snprintf(h->message, sizeof h->message, "%s", why);
  out->message = h->message;
  out->message_size = (uint32_t)strlen(h->message);
}

int atomfuzz_target_run(void* opaque, const atomfuzz_case* c,
                        atomfuzz_outcome* out) {
  handle* h = opaque;
  se_run run;
  const char* why = "";
  int rc;
  release(h);
  inject_fault(h->fault, c);
  memset(&run, 0, sizeof run);
  run.c = c;
  run.lost_alloc = h->lost_alloc;
  run.dup_alloc = h->dup_alloc;
  if (c->resource_count > 64)
    return finish(h, out, ATOMFUZZ_STATUS_REJECTED, "too many UAVs"), 0;
  for (uint32_t i = 0; i < c->resource_count; ++i) {
    const atomfuzz_resource* r = &c->resources[i];
    se_memory* m = r->slot < 64 ? &run.uav[r->slot] : NULL;
    if (!m)
      return finish(h, out, ATOMFUZZ_STATUS_REJECTED, "UAV slot out of range"),
             0;
    h->words[i] = malloc((size_t)r->word_count * 4 + 4);
    if (!h->words[i])
      return finish(h, out, ATOMFUZZ_STATUS_REJECTED, "out of memory"), 0;
    memcpy(h->words[i], r->initial, (size_t)r->word_count * 4);
    m->present = 1;
    m->kind = r->kind;
    m->words = r->word_count;
    m->stride = r->stride;
    m->elements = r->elements;
    m->width = typed_width(r->dim);
    memcpy(m->size, r->size, sizeof m->size);
    m->float_format = r->format == ATOMFUZZ_R32_FLOAT;
    m->data = h->words[i];
    h->uavs[i].slot = r->slot;
    h->uavs[i].word_count = r->word_count;
    h->uavs[i].words = h->words[i];
    h->uavs[i].counter = r->counter;
    m->counter = r->has_counter ? &h->uavs[i].counter : NULL;
  }
  run.tgsm = calloc(SE_MAX_TGSM, sizeof *run.tgsm);
  if (!run.tgsm)
    return finish(h, out, ATOMFUZZ_STATUS_REJECTED, "out of memory"), 0;
  rc = se_interpret(&run, &why);
  for (int k = 0; k < SE_MAX_TGSM; ++k) free(run.tgsm[k].data);
  free(run.tgsm);
  h->events = run.events;
  if (rc != 0) return finish(h, out, ATOMFUZZ_STATUS_REJECTED, why), 0;
  if (run.budget_exceeded) {
    finish(h, out, ATOMFUZZ_STATUS_BUDGET_EXCEEDED,
           "a thread ran more than 2^20 instructions");
  }
  out->uav_count = c->resource_count;
  out->uavs = h->uavs;
  out->has_trace = !h->no_trace;
  out->event_count = h->no_trace ? 0 : run.event_count;
  out->events = run.events;
  return 0;
}
