// An ALU instruction of one lane whose operands are all temps or
// immediates, with each operand resolved once per pass to what the lane
// reads and writes: a flat index into the thread's r# values, or a
// constant. A step then reads no isa::Operand (its fields are spread out,
// and Read/Write re-derive the index at every step).
#ifndef ATOMFUZZ_ORACLE_FLAT_ALU_H_
#define ATOMFUZZ_ORACLE_FLAT_ALU_H_

#include <array>
#include <cstdint>
#include <optional>

#include "isa/program.h"
#include "oracle/value.h"

namespace atomfuzz::oracle {

struct FlatAlu {
  // A register index that names no register: the source is `constant`, or
  // the write goes nowhere.
  static constexpr uint32_t kNone = UINT32_MAX;
  struct Source {
    uint32_t reg = kNone;  // index into Thread::regs (r<n>.<c> is n * 4 + c)
    Value constant;        // when reg is kNone
  };

  isa::Op op = isa::Op::kMov;
  uint32_t dst = kNone;
  // All four, filled as EvalAlu expects: a source the instruction lacks
  // reads as undefined where the op would read it, one the op does not
  // read as defined.
  std::array<Source, 4> src;

  // The flat form of `inst` writing only `lane`, with `temp_values` r#
  // components per thread, given its first `sources` source operands and
  // that the op reads `counted` of them; nullopt if an operand is in
  // another file (x#, a thread ID).
  static std::optional<FlatAlu> Of(const isa::Instruction& inst, int lane,
                                   size_t sources, int counted, size_t temp_values);
};

}  // namespace atomfuzz::oracle

#endif  // ATOMFUZZ_ORACLE_FLAT_ALU_H_
