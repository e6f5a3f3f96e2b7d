/* The interpreter of the simple executor: operands, the integer ALU, and
 * structured control flow through precomputed jump targets, one thread at a
 * time until it returns or reaches a group barrier. */
#include "interpret.h"

#include <stdlib.h>
#include <string.h>

/* ---- operands ---- */

static uint32_t component(const atomfuzz_operand* o, int lane) {
  return (o->selection == ATOMFUZZ_SELECT_ONE ? o->swizzle[0]
                                              : o->swizzle[lane & 3]) &
         3;
}

static uint32_t* x_cell(const program* p, thread* t, const atomfuzz_operand* o,
                        uint32_t comp) {
  uint64_t element = o->offset;
  if (o->index >= MAX_X) return NULL;
  if (o->has_relative && o->relative_temp < p->temps) {
    element += t->r[o->relative_temp * 4 + (o->relative_component & 3)];
  }
  if (element >= p->x_size[o->index]) return NULL;
  return &t->x[(p->x_base[o->index] + element) * 4 + comp];
}

uint32_t se_src(const program* p, thread* t, const atomfuzz_operand* o,
                int lane) {
  const uint32_t c = component(o, lane);
  const uint32_t* cell;
  switch (o->file) {
    case ATOMFUZZ_FILE_IMMEDIATE:
      return o->values[o->value_count == 1 ? 0 : lane & 3];
    case ATOMFUZZ_FILE_TEMP:
      return o->index < p->temps ? t->r[o->index * 4 + c] : 0;
    case ATOMFUZZ_FILE_INDEXABLE_TEMP:
      cell = x_cell(p, t, o, c);
      return cell ? *cell : 0;
    case ATOMFUZZ_FILE_THREAD_ID:
      return c < 3 ? t->gid[c] * p->group_size[c] + t->tid[c] : 0;
    case ATOMFUZZ_FILE_GROUP_ID: return c < 3 ? t->gid[c] : 0;
    case ATOMFUZZ_FILE_THREAD_IN_GROUP: return c < 3 ? t->tid[c] : 0;
    case ATOMFUZZ_FILE_THREAD_IN_GROUP_FLAT: return t->flat;
  }
  return 0;
}

void se_dst(const program* p, thread* t, const atomfuzz_operand* o,
            const uint32_t v[4]) {
  for (uint32_t c = 0; c < 4; ++c) {
    if (!(o->mask & (1u << c))) continue;
    if (o->file == ATOMFUZZ_FILE_TEMP && o->index < p->temps)
      t->r[o->index * 4 + c] = v[c];
    if (o->file == ATOMFUZZ_FILE_INDEXABLE_TEMP) {
      uint32_t* cell = x_cell(p, t, o, c);
      if (cell) *cell = v[c];
    }
  }
}

void se_dst_all(const program* p, thread* t, const atomfuzz_operand* o,
                uint32_t v) {
  const uint32_t four[4] = {v, v, v, v};
  se_dst(p, t, o, four);
}

/* ---- ALU ---- */

/* ftou/ftoi (docs/pixel-stage.md P.4): toward zero, NaN 0, clamped to the
 * range. A C cast out of range is undefined, hence the comparisons first. */
static uint32_t ftou(uint32_t bits) {
  float f;
  memcpy(&f, &bits, sizeof f);
  if (!(f > 0.0f)) return 0; /* NaN, negatives and zeros */
  if (f >= 4294967296.0f) return 0xffffffffu;
  return (uint32_t)f;
}

static uint32_t ftoi(uint32_t bits) {
  float f;
  memcpy(&f, &bits, sizeof f);
  if (f != f) return 0;
  if (f >= 2147483648.0f) return 0x7fffffffu;
  if (f <= -2147483648.0f) return 0x80000000u;
  return (uint32_t)(int32_t)f;
}

static uint32_t alu(uint32_t op, uint32_t a, uint32_t b, uint32_t c,
                    uint32_t d) {
  const int32_t sa = (int32_t)a, sb = (int32_t)b;
  uint32_t w, o;
  switch (op) {
    case OP_MOV: return a;
    case OP_FTOU: return ftou(a);
    case OP_FTOI: return ftoi(a);
    case OP_MOVC: return a ? b : c;
    case OP_IADD: return a + b;
    case OP_INEG: return 0u - a;
    case OP_IMAD:
    case OP_UMAD: return a * b + c;
    case OP_ISHL: return a << (b & 31);
    case OP_ISHR: return (uint32_t)(sa >> (b & 31));
    case OP_USHR: return a >> (b & 31);
    case OP_AND: return a & b;
    case OP_OR: return a | b;
    case OP_XOR: return a ^ b;
    case OP_NOT: return ~a;
    case OP_IEQ: return a == b ? ~0u : 0;
    case OP_INE: return a != b ? ~0u : 0;
    case OP_ILT: return sa < sb ? ~0u : 0;
    case OP_IGE: return sa >= sb ? ~0u : 0;
    case OP_ULT: return a < b ? ~0u : 0;
    case OP_UGE: return a >= b ? ~0u : 0;
    case OP_IMAX: return sa > sb ? a : b;
    case OP_IMIN: return sa < sb ? a : b;
    case OP_UMAX: return a > b ? a : b;
    case OP_UMIN: return a < b ? a : b;
    case OP_COUNTBITS: return (uint32_t)__builtin_popcount(a);
    case OP_UBFE:
      w = a & 31, o = b & 31;
      if (w == 0) return 0;
      if (w + o < 32) return (c << (32 - w - o)) >> (32 - w);
      return c >> o;
    case OP_BFI:
      w = a & 31, o = b & 31;
      {
        const uint32_t mask = (((1u << w) - 1) << o);
        return ((c << o) & mask) | (d & ~mask);
      }
  }
  return 0;
}

static void run_alu(const program* p, thread* t,
                    const atomfuzz_instruction* in) {
  const atomfuzz_operand* ops = in->operands;
  uint32_t lo[4] = {0}, hi[4] = {0};
  if (in->opcode == OP_IMUL || in->opcode == OP_UMUL) {
    for (int c = 0; c < 4; ++c) {
      const uint32_t a = se_src(p, t, &ops[2], c), b = se_src(p, t, &ops[3], c);
      const uint64_t prod = in->opcode == OP_IMUL
                                ? (uint64_t)((int64_t)(int32_t)a * (int32_t)b)
                                : (uint64_t)a * b;
      lo[c] = (uint32_t)prod;
      hi[c] = (uint32_t)(prod >> 32);
    }
    se_dst(p, t, &ops[0], hi);
    se_dst(p, t, &ops[1], lo);
    return;
  }
  for (int c = 0; c < 4;
       ++c) { /* all lanes first: a source may be the destination */
    uint32_t s[4] = {0, 0, 0, 0};
    for (uint32_t k = 1; k < in->operand_count && k < 5; ++k)
      s[k - 1] = se_src(p, t, &ops[k], c);
    lo[c] = alu(in->opcode, s[0], s[1], s[2], s[3]);
  }
  se_dst(p, t, &ops[0], lo);
}

/* What this example runs: the opcodes above, the atomics between them and
 * the declarations it reads nothing from (dcl_uav_*, dcl_input,
 * dcl_global_flags). Anything else (float arithmetic, say) is refused,
 * never run as something else: a wrong value would be a false divergence of
 * the example, not of the translator it stands in for. */
static int implemented(uint32_t op) {
  switch (op) {
    case OP_FTOI:
    case OP_FTOU:
    case OP_AND:
    case OP_BREAK:
    case OP_BREAKC:
    case OP_CASE:
    case OP_CONTINUE:
    case OP_CONTINUEC:
    case OP_DEFAULT:
    case OP_ELSE:
    case OP_ENDIF:
    case OP_ENDLOOP:
    case OP_ENDSWITCH:
    case OP_IADD:
    case OP_IF:
    case OP_IEQ:
    case OP_IGE:
    case OP_ILT:
    case OP_IMAD:
    case OP_IMAX:
    case OP_IMIN:
    case OP_IMUL:
    case OP_INE:
    case OP_INEG:
    case OP_ISHL:
    case OP_ISHR:
    case OP_LOOP:
    case OP_MOV:
    case OP_MOVC:
    case OP_NOT:
    case OP_OR:
    case OP_RET:
    case OP_RETC:
    case OP_SWITCH:
    case OP_ULT:
    case OP_UGE:
    case OP_UMUL:
    case OP_UMAD:
    case OP_UMAX:
    case OP_UMIN:
    case OP_USHR:
    case OP_XOR:
    case OP_DCL_TEMPS:
    case OP_DCL_INDEXABLE_TEMP:
    case OP_COUNTBITS:
    case OP_UBFE:
    case OP_BFI:
    case OP_DCL_THREAD_GROUP:
    case OP_DCL_TGSM_RAW:
    case OP_DCL_TGSM_STRUCTURED:
    case OP_LD_UAV_TYPED:
    case OP_STORE_UAV_TYPED:
    case OP_LD_RAW:
    case OP_STORE_RAW:
    case OP_LD_STRUCTURED:
    case OP_STORE_STRUCTURED:
    case OP_ALLOC:
    case OP_CONSUME:
    case OP_SYNC: return 1;
  }
  return (op >= OP_ATOMIC_AND && op <= OP_ATOMIC_UMIN) ||
         (op >= OP_IMM_IADD && op <= OP_IMM_UMIN) || op == 95 || op == 106 ||
         (op >= 155 && op <= 160);
}

/* ---- preparation: declarations and jump targets ---- */

static int prepare(se_run* run, program* p, const char** why) {
  uint32_t stack[256], depth = 0;
  memset(p, 0, sizeof *p);
  p->in = run->c->instructions;
  p->count = run->c->instruction_count;
  p->jump = calloc(p->count + 1, sizeof *p->jump);
  p->owner = malloc((p->count + 1) * sizeof *p->owner);
  if (!p->jump || !p->owner) return *why = "out of memory", -1;
  for (uint32_t i = 0; i < p->count; ++i) {
    const atomfuzz_instruction* in = &p->in[i];
    const atomfuzz_operand* o = in->operands;
    uint32_t top = depth ? p->in[stack[depth - 1]].opcode : 0;
    p->owner[i] = UINT32_MAX;
    if (!implemented(in->opcode))
      return *why = "an instruction this example does not implement", -1;
    switch (in->opcode) {
      case OP_DCL_TEMPS: p->temps = o[0].index; break;
      case OP_DCL_INDEXABLE_TEMP:
        if (o[0].index >= MAX_X || o[0].offset > 65536)
          return *why = "indexable temp too large", -1;
        p->x_base[o[0].index] = p->x_total;
        p->x_size[o[0].index] = o[0].offset;
        p->x_total += o[0].offset;
        break;
      case OP_DCL_THREAD_GROUP:
        for (int k = 0; k < 3; ++k) p->group_size[k] = o[k].index;
        break;
      case OP_DCL_TGSM_RAW:
      case OP_DCL_TGSM_STRUCTURED: {
        se_memory* m = o[0].index < SE_MAX_TGSM ? &run->tgsm[o[0].index] : NULL;
        if (!m) return *why = "g# out of range", -1;
        m->present = 1;
        m->kind =
            in->opcode == OP_DCL_TGSM_RAW ? ATOMFUZZ_RAW : ATOMFUZZ_STRUCTURED;
        m->stride = o[1].index;
        m->elements = in->opcode == OP_DCL_TGSM_RAW ? 0 : o[2].index;
        m->words = in->opcode == OP_DCL_TGSM_RAW ? o[1].index / 4
                                                 : o[1].index / 4 * o[2].index;
        if (m->words > (1u << 20)) return *why = "g# too large", -1;
        free(m->data);
        m->data = calloc(m->words + 1, 4);
        if (!m->data) return *why = "out of memory", -1;
        break;
      }
      case OP_IF:
      case OP_LOOP:
      case OP_SWITCH:
        if (depth == 256) return *why = "control flow nested too deep", -1;
        stack[depth++] = i;
        break;
      case OP_ELSE:
        if (top != OP_IF) return *why = "else without if", -1;
        p->jump[stack[depth - 1]] = i;
        stack[depth - 1] = i;
        break;
      case OP_ENDIF:
      case OP_ENDLOOP:
      case OP_ENDSWITCH:
        if (!depth ||
            (in->opcode == OP_ENDIF && top != OP_IF && top != OP_ELSE) ||
            (in->opcode == OP_ENDLOOP && top != OP_LOOP) ||
            (in->opcode == OP_ENDSWITCH && top != OP_SWITCH)) {
          return *why = "unbalanced control flow", -1;
        }
        p->jump[stack[--depth]] = i;
        if (in->opcode == OP_ENDLOOP) p->jump[i] = stack[depth];
        break;
      case OP_BREAK:
      case OP_BREAKC:
      case OP_CONTINUE:
      case OP_CONTINUEC:
      case OP_CASE:
      case OP_DEFAULT:
        for (uint32_t k = depth; k-- > 0;) {
          const uint32_t op = p->in[stack[k]].opcode;
          const int breakable =
              in->opcode == OP_BREAK || in->opcode == OP_BREAKC;
          const int cased = in->opcode == OP_CASE || in->opcode == OP_DEFAULT;
          if (op == OP_LOOP ? !cased
                            : op == OP_SWITCH && (breakable || cased)) {
            p->owner[i] = stack[k];
            break;
          }
        }
        if (p->owner[i] == UINT32_MAX)
          return *why = "break, continue or case outside", -1;
        break;
    }
  }
  if (depth) return *why = "unbalanced control flow", -1;
  if (p->temps > 4096 || p->x_total > 65536)
    return *why = "too many registers", -1;
  if ((uint64_t)p->group_size[0] * p->group_size[1] * p->group_size[2] - 1 >=
      1024) {
    return *why = "thread group size out of range", -1;
  }
  return 0;
}

/* ---- one thread ---- */

static int passes(thread* t, const program* p, const atomfuzz_instruction* in) {
  return (se_src(p, t, &in->operands[0], 0) != 0) == (in->test_nonzero != 0);
}

/* Runs until the thread returns (0) or reaches a barrier (1); -1 rejects
 * the case, -2 is the step budget. */
static int run_thread(se_run* run, const program* p, thread* t,
                      const char** why) {
  while (t->pc < p->count) {
    const uint32_t i = t->pc;
    const atomfuzz_instruction* in = &p->in[i];
    const uint32_t op = in->opcode;
    if (++t->steps > STEP_BUDGET) return run->budget_exceeded = 1, -2;
    t->pc = i + 1;
    switch (op) {
      case OP_IF:
        if (!passes(t, p, in)) t->pc = p->jump[i] + 1;
        break;
      case OP_ELSE:
      case OP_ENDLOOP: t->pc = p->jump[i] + 1; break;
      case OP_BREAK: t->pc = p->jump[p->owner[i]] + 1; break;
      case OP_BREAKC:
        if (passes(t, p, in)) t->pc = p->jump[p->owner[i]] + 1;
        break;
      case OP_CONTINUE: t->pc = p->owner[i] + 1; break;
      case OP_CONTINUEC:
        if (passes(t, p, in)) t->pc = p->owner[i] + 1;
        break;
      case OP_SWITCH: {
        const uint32_t selector = se_src(p, t, &in->operands[0], 0);
        uint32_t target = p->jump[i], fallback = p->jump[i];
        for (uint32_t j = i + 1; j < p->jump[i]; ++j) {
          if (p->owner[j] != i) continue;
          if (p->in[j].opcode == OP_DEFAULT) fallback = j;
          if (p->in[j].opcode == OP_CASE &&
              p->in[j].operands[0].values[0] == selector) {
            target = j;
            break;
          }
        }
        t->pc = (target != p->jump[i] ? target : fallback) + 1;
        break;
      }
      case OP_RET: t->done = 1; return 0;
      case OP_RETC:
        if (passes(t, p, in)) {
          t->done = 1;
          return 0;
        }
        break;
      case OP_SYNC:
        if (in->sync_flags & 1) return 1;
        break; /* _t: wait for the group */
      case OP_LD_RAW:
      case OP_LD_STRUCTURED:
      case OP_LD_UAV_TYPED:
        if (se_load(run, p, t, i))
          return *why = "load from an unbound memory", -1;
        break;
      case OP_STORE_RAW:
      case OP_STORE_STRUCTURED:
      case OP_STORE_UAV_TYPED:
        if (se_store(run, p, t, i))
          return *why = "store to an unbound memory", -1;
        break;
      case OP_ALLOC:
      case OP_CONSUME:
        if (se_counter(run, p, t, i))
          return *why = "counter of a UAV without one", -1;
        break;
      default:
        if ((op >= OP_ATOMIC_AND && op <= OP_ATOMIC_UMIN) ||
            (op >= OP_IMM_IADD && op <= OP_IMM_UMIN)) {
          if (se_atomic(run, p, t, i))
            return *why = "atomic on an unbound memory", -1;
        } else if (op == OP_CASE || op == OP_DEFAULT || op == OP_ENDIF ||
                   op == OP_LOOP || op == OP_ENDSWITCH || op == 95 ||
                   op == 106 || (op >= 155 && op <= 160) ||
                   op == OP_DCL_TEMPS || op == OP_DCL_INDEXABLE_TEMP) {
          /* nothing to do at run time */
        } else {
          run_alu(p, t, in);
        }
    }
    if (run->out_of_memory) return *why = "out of memory", -1;
    if (run->budget_exceeded) return -2;
  }
  t->done = 1;
  return 0;
}

/* ---- the dispatch ---- */

int se_interpret(se_run* run, const char** why) {
  program p;
  thread* threads = NULL;
  uint32_t* block = NULL;
  uint32_t n, per_thread, g[3];
  int rc = prepare(run, &p, why);
  n = p.group_size[0] * p.group_size[1] * p.group_size[2];
  per_thread = p.temps * 4 + p.x_total * 4 + p.count;
  if (rc == 0) {
    threads = calloc(n, sizeof *threads);
    block = malloc(((size_t)n * per_thread + 1) * 4);
    if (!threads || !block) rc = -1, *why = "out of memory";
  }
  for (g[2] = 0; rc == 0 && g[2] < run->c->groups[2]; ++g[2]) {
    for (g[1] = 0; rc == 0 && g[1] < run->c->groups[1]; ++g[1]) {
      for (g[0] = 0; rc == 0 && g[0] < run->c->groups[0]; ++g[0]) {
        uint32_t live = n;
        for (int k = 0; k < SE_MAX_TGSM;
             ++k) { /* TGSM starts undefined (E-22): zero is one value */
          if (run->tgsm[k].present)
            memset(run->tgsm[k].data, 0, run->tgsm[k].words * 4);
        }
        memset(block, 0, (size_t)n * per_thread * 4);
        for (uint32_t k = 0; k < n; ++k) {
          thread* t = &threads[k];
          memset(t, 0, sizeof *t);
          t->tid[0] = k % p.group_size[0];
          t->tid[1] = k / p.group_size[0] % p.group_size[1];
          t->tid[2] = k / (p.group_size[0] * p.group_size[1]);
          t->flat = k;
          memcpy(t->gid, g, sizeof g);
          t->r = block + (size_t)k * per_thread;
          t->x = t->r + p.temps * 4;
          t->occurrence = t->x + p.x_total * 4;
        }
        while (live > 0 && rc == 0) { /* each thread up to its next barrier */
          for (uint32_t k = 0; k < n && rc == 0; ++k) {
            if (threads[k].done) continue;
            rc = run_thread(run, &p, &threads[k], why);
            if (rc == 1) rc = 0; /* at a barrier: the next thread's turn */
            if (threads[k].done) --live;
          }
        }
      }
    }
  }
  free(threads);
  free(block);
  free(p.jump);
  free(p.owner);
  return rc == -2 ? 0 : rc;
}
