/* Memory access of the simple executor. Addresses follow the spec's rules
 * (1.2, 1.3, 1.7): out-of-bounds, misaligned and past-the-stride accesses
 * leave memory alone, one of the outcomes the spec allows for each. */
#include <stdlib.h>
#include <string.h>

#include "interpret.h"

/* ---- memory ---- */

static se_memory* memory_of(se_run* run, const atomfuzz_operand* o) {
  se_memory* m = NULL;
  if (o->file == ATOMFUZZ_FILE_TGSM && o->index < SE_MAX_TGSM)
    m = &run->tgsm[o->index];
  if (o->file == ATOMFUZZ_FILE_UAV && o->index < 64) m = &run->uav[o->index];
  return m && m->present ? m : NULL;
}

/* The word an atomic's address lands on; 0 when it misses. */
static int resolve(const se_memory* m, const uint32_t a[3], uint32_t* word) {
  uint64_t w = 0, scale = 1;
  switch (m->kind) {
    case ATOMFUZZ_RAW:
      if (a[0] % 4 || (uint64_t)a[0] + 4 > (uint64_t)m->words * 4) return 0;
      *word = a[0] / 4;
      return 1;
    case ATOMFUZZ_STRUCTURED:
      if (a[1] % 4 || (uint64_t)a[1] + 4 > m->stride || a[0] >= m->elements)
        return 0;
      *word = (uint32_t)((uint64_t)a[0] * (m->stride / 4) + a[1] / 4);
      return 1;
    default:
      for (uint32_t i = 0; i < m->width; ++i) {
        if (a[i] >= m->size[i]) return 0;
        w += a[i] * scale;
        scale *= m->size[i];
      }
      *word = (uint32_t)w;
      return 1;
  }
}

static void record(se_run* run, thread* t, uint32_t index,
                   const atomfuzz_operand* mem, int hit, uint32_t word,
                   uint32_t a, uint32_t b, uint32_t returned) {
  atomfuzz_event* e;
  if (run->event_count == run->event_capacity) {
    const uint32_t grown = run->event_capacity ? run->event_capacity * 2 : 256;
    atomfuzz_event* more;
    if (grown > 4194304u) {
      run->budget_exceeded = 1;
      return;
    }
    more = realloc(run->events, grown * sizeof *more);
    if (!more) {
      run->out_of_memory = 1;
      return;
    }
    run->events = more;
    run->event_capacity = grown;
  }
  e = &run->events[run->event_count++];
  memset(e, 0, sizeof *e);
  memcpy(e->group, t->gid, sizeof e->group);
  memcpy(e->thread, t->tid, sizeof e->thread);
  e->instruction = index;
  e->occurrence = t->occurrence[index]++;
  e->file = mem->file;
  e->slot = mem->index;
  e->word = word;
  e->address = hit ? ATOMFUZZ_ADDRESS_IN_BOUNDS : ATOMFUZZ_ADDRESS_SKIP;
  e->src0 = a;
  e->src1 = b;
  e->has_returned = 1;
  e->returned = returned;
}

static uint32_t rmw(uint32_t rmw_op, uint32_t old, uint32_t a, uint32_t b) {
  switch (rmw_op) {
    case 0: return old + a; /* iadd */
    case 1: return old & a;
    case 2: return old | a;
    case 3: return old ^ a;
    case 4: return a;                  /* exch */
    case 5: return old == a ? b : old; /* cmp_exch: a comparand, b value */
    case 6: return (int32_t)a > (int32_t)old ? a : old;
    case 7: return (int32_t)a < (int32_t)old ? a : old;
    case 8: return a > old ? a : old;
    default: return a < old ? a : old;
  }
}

/* atomic_* (169..177) and imm_atomic_* (180..189); spec 1.4, 1.5 (the two
 * groups list their operations in different orders, E-39). */
int se_atomic(se_run* run, const program* p, thread* t, uint32_t index) {
  static const uint32_t kPlain[] = {1, 2, 3, 5, 0, 6, 7, 8, 9};
  static const uint32_t kImm[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  const atomfuzz_instruction* in = &p->in[index];
  const int imm = in->opcode >= OP_IMM_IADD;
  const atomfuzz_operand* ops = in->operands + (imm ? 1 : 0);
  const int cmp =
      in->opcode == OP_IMM_CMP_EXCH || in->opcode == OP_ATOMIC_CMP_STORE;
  const uint32_t op =
      imm ? kImm[in->opcode - OP_IMM_IADD] : kPlain[in->opcode - OP_ATOMIC_AND];
  se_memory* m = memory_of(run, &ops[0]);
  uint32_t a[3], word = 0, old = 0, va, vb;
  int hit;
  if (!m) return -1;
  for (int i = 0; i < 3; ++i) a[i] = se_src(p, t, &ops[1], i);
  va = se_src(p, t, &ops[2], 0);
  vb = cmp ? se_src(p, t, &ops[3], 0) : 0;
  hit = resolve(m, a, &word);
  if (hit) {
    old = m->data[word];
    m->data[word] = rmw(op, old, va, vb);
  }
  if (imm) se_dst_all(p, t, &in->operands[0], old);
  record(run, t, index, &ops[0], hit, word, va, vb, old);
  return 0;
}

int se_counter(se_run* run, const program* p, thread* t, uint32_t index) {
  const atomfuzz_instruction* in = &p->in[index];
  se_memory* m = memory_of(run, &in->operands[1]);
  uint32_t v;
  if (!m || !m->counter) return -1;
  if (in->opcode == OP_ALLOC) {
    const int second = run->allocs++ % 2 == 1;
    v = *m->counter;
    if (run->dup_alloc && second && v > 0) --v;
    if (!run->lost_alloc || !second) ++*m->counter;
  } else {
    v = --(*m->counter); /* consume returns the value after (spec 1.6) */
  }
  se_dst_all(p, t, &in->operands[0], v);
  record(run, t, index, &in->operands[1], 1, 0, 0, 0, v);
  return 0;
}

/* ld_raw / ld_structured read a four-word window (out of bounds reads 0),
 * ld_uav_typed one texel (value, 0, 0, 1); then the resource swizzle. */
int se_load(se_run* run, const program* p, thread* t, uint32_t index) {
  const atomfuzz_instruction* in = &p->in[index];
  const atomfuzz_operand* res = &in->operands[in->operand_count - 1];
  se_memory* m = memory_of(run, res);
  uint32_t window[4] = {0, 0, 0, 0}, out[4];
  if (!m) return -1;
  if (in->opcode == OP_LD_UAV_TYPED) {
    uint32_t a[3], word;
    for (int i = 0; i < 3; ++i) a[i] = se_src(p, t, &in->operands[1], i);
    if (m->kind == ATOMFUZZ_TYPED && resolve(m, a, &word))
      window[0] = m->data[word];
    window[3] = m->float_format ? 0x3f800000u : 1u;
  } else {
    const int structured = in->opcode == OP_LD_STRUCTURED;
    const uint32_t element = structured ? se_src(p, t, &in->operands[1], 0) : 0;
    const uint32_t offset = se_src(p, t, &in->operands[structured ? 2 : 1], 0);
    if (offset % 4 == 0 && (!structured || element < m->elements)) {
      const uint64_t base =
          (structured ? (uint64_t)element * m->stride : 0) + offset;
      for (uint32_t c = 0; c < 4; ++c) {
        const uint64_t byte = base + 4ull * c;
        const int inside =
            byte + 4 <= (uint64_t)m->words * 4 &&
            (!structured || (uint64_t)offset + 4ull * c + 4 <= m->stride);
        if (inside) window[c] = m->data[byte / 4];
      }
    }
  }
  for (int c = 0; c < 4; ++c) out[c] = window[res->swizzle[c] & 3];
  se_dst(p, t, &in->operands[0], out);
  return 0;
}

/* store_raw / store_structured write the masked words in a row; a
 * misaligned or past-the-stride store poisons (nothing written here). */
int se_store(se_run* run, const program* p, thread* t, uint32_t index) {
  const atomfuzz_instruction* in = &p->in[index];
  const atomfuzz_operand* res = &in->operands[0];
  se_memory* m = memory_of(run, res);
  if (!m) return -1;
  if (in->opcode == OP_STORE_UAV_TYPED) {
    uint32_t a[3], word;
    for (int i = 0; i < 3; ++i) a[i] = se_src(p, t, &in->operands[1], i);
    if (m->kind == ATOMFUZZ_TYPED && resolve(m, a, &word)) {
      m->data[word] = se_src(p, t, &in->operands[2], 0);
    }
    return 0;
  }
  {
    const int structured = in->opcode == OP_STORE_STRUCTURED;
    const uint32_t element = structured ? se_src(p, t, &in->operands[1], 0) : 0;
    const uint32_t offset = se_src(p, t, &in->operands[structured ? 2 : 1], 0);
    const atomfuzz_operand* value = &in->operands[structured ? 3 : 2];
    uint32_t count = 0, values[4];
    for (uint32_t c = 0; c < 4; ++c) {
      if (res->mask & (1u << c)) count = c + 1;
      values[c] = se_src(p, t, value, (int)c);
    }
    if (offset % 4 != 0) return 0;
    if (structured && ((uint64_t)offset + 4ull * count > m->stride ||
                       element >= m->elements)) {
      return 0;
    }
    for (uint32_t c = 0; c < count; ++c) {
      const uint64_t byte =
          (structured ? (uint64_t)element * m->stride : 0) + offset + 4ull * c;
      if ((res->mask & (1u << c)) && byte + 4 <= (uint64_t)m->words * 4) {
        m->data[byte / 4] = values[c];
      }
    }
  }
  return 0;
}
