/* What the two halves of the simple executor's interpreter share: opcode
 * numbers (DXBC tokens, spec 4.5), the prepared program, one thread's
 * registers, and operand access. */
#ifndef SIMPLE_EXECUTOR_INTERPRET_H_
#define SIMPLE_EXECUTOR_INTERPRET_H_

#include "simple_executor.h"

enum {
  OP_AND = 1,
  OP_BREAK = 2,
  OP_BREAKC = 3,
  OP_CASE = 6,
  OP_CONTINUE = 7,
  OP_CONTINUEC = 8,
  OP_DEFAULT = 10,
  OP_ELSE = 18,
  OP_ENDIF = 21,
  OP_ENDLOOP = 22,
  OP_ENDSWITCH = 23,
  OP_FTOI = 27,
  OP_FTOU = 28,
  OP_IADD = 30,
  OP_IF = 31,
  OP_IEQ = 32,
  OP_IGE = 33,
  OP_ILT = 34,
  OP_IMAD = 35,
  OP_IMAX = 36,
  OP_IMIN = 37,
  OP_IMUL = 38,
  OP_INE = 39,
  OP_INEG = 40,
  OP_ISHL = 41,
  OP_ISHR = 42,
  OP_LOOP = 48,
  OP_MOV = 54,
  OP_MOVC = 55,
  OP_NOT = 59,
  OP_OR = 60,
  OP_RET = 62,
  OP_RETC = 63,
  OP_SWITCH = 76,
  OP_ULT = 79,
  OP_UGE = 80,
  OP_UMUL = 81,
  OP_UMAD = 82,
  OP_UMAX = 83,
  OP_UMIN = 84,
  OP_USHR = 85,
  OP_XOR = 87,
  OP_DCL_TEMPS = 104,
  OP_DCL_INDEXABLE_TEMP = 105,
  OP_COUNTBITS = 134,
  OP_UBFE = 138,
  OP_BFI = 140,
  OP_DCL_THREAD_GROUP = 155,
  OP_DCL_TGSM_RAW = 159,
  OP_DCL_TGSM_STRUCTURED = 160,
  OP_LD_UAV_TYPED = 163,
  OP_STORE_UAV_TYPED = 164,
  OP_LD_RAW = 165,
  OP_STORE_RAW = 166,
  OP_LD_STRUCTURED = 167,
  OP_STORE_STRUCTURED = 168,
  OP_ATOMIC_AND = 169,
  OP_ATOMIC_CMP_STORE = 172,
  OP_ATOMIC_UMIN = 177,
  OP_ALLOC = 178,
  OP_CONSUME = 179,
  OP_IMM_IADD = 180,
  OP_IMM_CMP_EXCH = 185,
  OP_IMM_UMIN = 189,
  OP_SYNC = 190
};

#define MAX_X 64
#define STEP_BUDGET (1u << 20)

typedef struct program {
  const atomfuzz_instruction* in;
  uint32_t count;
  uint32_t temps, x_base[MAX_X], x_size[MAX_X], x_total;
  uint32_t group_size[3];
  uint32_t*
      jump; /* if/else -> else/endif, loop <-> endloop, switch -> endswitch */
  uint32_t* owner; /* break -> loop/switch, continue -> loop, case -> switch */
} program;

typedef struct thread {
  uint32_t tid[3], gid[3], flat;
  uint32_t pc, done, steps;
  uint32_t *r, *x, *occurrence;
} thread;

uint32_t se_src(const program* p, thread* t, const atomfuzz_operand* o,
                int lane);
void se_dst(const program* p, thread* t, const atomfuzz_operand* o,
            const uint32_t v[4]);
void se_dst_all(const program* p, thread* t, const atomfuzz_operand* o,
                uint32_t v);

/* memory.c: each returns 0, or -1 for a memory the case does not bind. */
int se_atomic(se_run* run, const program* p, thread* t, uint32_t index);
int se_counter(se_run* run, const program* p, thread* t, uint32_t index);
int se_load(se_run* run, const program* p, thread* t, uint32_t index);
int se_store(se_run* run, const program* p, thread* t, uint32_t index);

#endif /* SIMPLE_EXECUTOR_INTERPRET_H_ */
