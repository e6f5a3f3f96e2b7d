// Which instructions belong to one stage only (spec 1.1, docs/
// pixel-stage.md P.1): the validator's `stage` rule, and generators and
// tests that build programs of one stage, ask here. Also what a pixel
// shader's declarations make of its draw (P.2), which every executor and
// the campaign's coverage read alike.
#ifndef ATOMFUZZ_ISA_STAGES_H_
#define ATOMFUZZ_ISA_STAGES_H_

#include <algorithm>

#include "isa/opcode_table.h"
#include "isa/program.h"

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

// Whether the program declares the pixel input `name` (dcl_input_ps_sgv
// or _siv).
inline bool DeclaresInput(const Program& program, InputName name) {
  return std::any_of(
      program.instructions.begin(), program.instructions.end(),
      [name](const Instruction& i) {
        return (i.op == Op::kDclInputPsSgv || i.op == Op::kDclInputPsSiv) &&
               i.operands.size() == 2 &&
               i.operands[1].index == static_cast<uint32_t>(name);
      });
}

// Whether a pixel shader runs once per covered sample rather than once per
// pixel: it reads SV_SampleIndex (P.2).
inline bool RunsPerSample(const Program& program) {
  return DeclaresInput(program, InputName::kSampleIndex);
}

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_STAGES_H_
