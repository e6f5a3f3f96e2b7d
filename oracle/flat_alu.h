// An ALU instruction of one lane whose operands are temps, system values
// or immediates, with each operand resolved once (Decode) to what the lane
// reads and writes: a flat index into the thread's values (Thread::values:
// its system values, then its r#), or a constant. A step then reads no
// isa::Operand (its fields are spread out, and Read/Write re-derive the
// index at every step).
#ifndef ATOMFUZZ_ORACLE_FLAT_ALU_H_
#define ATOMFUZZ_ORACLE_FLAT_ALU_H_

#include <array>
#include <cstdint>

#include "isa/program.h"
#include "oracle/value.h"

namespace atomfuzz::oracle {

// A thread keeps its system values (spec 1.9) ahead of its r#, in slots:
// vThreadID.xyz 0-2, vThreadGroupID.xyz 3-5, vThreadIDInGroup.xyz 6-8,
// vThreadIDInGroupFlattened 9 (the same in any component).
inline constexpr size_t kSystemValueCount = 10;
// The slot of component `c` of system value `file`, or -1 where it reads as
// undefined (a component past z, or no system value).
inline int SystemValueSlot(isa::RegFile file, int c) {
  switch (file) {
    case isa::RegFile::kThreadID: return c <= 2 ? c : -1;
    case isa::RegFile::kThreadGroupID: return c <= 2 ? 3 + c : -1;
    case isa::RegFile::kThreadIDInGroup: return c <= 2 ? 6 + c : -1;
    case isa::RegFile::kThreadIDInGroupFlattened: return 9;
    default: return -1;
  }
}

struct FlatAlu {
  // A destination index that names no register: the write goes nowhere.
  static constexpr uint32_t kNone = UINT32_MAX;

  isa::Op op = isa::Op::kMov;
  uint32_t dst = kNone;  // index into Thread::values
  // The sources, all four filled as EvalAlu expects: `constant` holds each
  // one that reads no register (an immediate; undefined where the op would
  // read a source the instruction lacks; defined where the op reads none),
  // then the first `reg_count` of `reg_slot` are overwritten from
  // Thread::values at `reg` (r<n>.<c> is kSystemValueCount + n * 4 + c).
  // Registers apart: most sources are immediates or unread.
  std::array<Value, 4> constant;
  uint8_t reg_count = 0;
  std::array<uint8_t, 4> reg_slot = {};
  std::array<uint32_t, 4> reg = {};

  // The flat form of `inst` writing only `lane`, with `temp_values` r#
  // components per thread, given its first `sources` source operands and
  // that the op reads `counted` of them, into `out` (default-constructed);
  // false if an operand is an x#.
  static bool Of(const isa::Instruction& inst, int lane, size_t sources, int counted,
                 size_t temp_values, FlatAlu& out);
};

}  // namespace atomfuzz::oracle

#endif  // ATOMFUZZ_ORACLE_FLAT_ALU_H_
