// Which instructions belong to one stage only (spec 1.1, docs/
// pixel-stage.md P.1): the validator's `stage` rule, and generators and
// tests that build programs of one stage, ask here.
#ifndef ATOMFUZZ_ISA_STAGES_H_
#define ATOMFUZZ_ISA_STAGES_H_

#include "isa/opcode_table.h"

namespace atomfuzz::isa {

// discard, derivatives and the pixel inputs' declarations.
inline bool PixelOnly(const OpcodeInfo& row) {
  return row.family == Family::kDiscard || row.family == Family::kDeriv ||
         row.op == Op::kDclInputPsSgv || row.op == Op::kDclInputPsSiv;
}

// sync, g# declarations and dcl_thread_group.
inline bool ComputeOnly(const OpcodeInfo& row) {
  return row.family == Family::kSync || row.op == Op::kDclTgsmRaw ||
         row.op == Op::kDclTgsmStructured || row.op == Op::kDclThreadGroup;
}

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_STAGES_H_
