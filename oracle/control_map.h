// Where each structured control-flow instruction transfers to, computed once
// per program so threads can be interpreted one instruction at a time.
#ifndef ATOMFUZZ_ORACLE_CONTROL_MAP_H_
#define ATOMFUZZ_ORACLE_CONTROL_MAP_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "isa/blocks.h"
#include "isa/program.h"

namespace atomfuzz::oracle {

struct ControlMap {
  // For each instruction index, by opcode:
  //   if_*: the index after its else, or its endif when there is no else
  //   else: its endif
  //   loop: its endloop;  endloop: its loop
  //   break*/continue*: the enclosing endloop/endswitch (break) or loop
  //   switch: its endswitch;  case/default: their switch
  std::vector<uint32_t> target;
  // The case/default instructions directly inside a switch, in order, as a
  // list threaded through the program (no vector per instruction to
  // allocate): switch: its first; case/default: the next; kNoCase ends it.
  // Empty when the program has no switch.
  static constexpr uint32_t kNoCase = UINT32_MAX;
  std::vector<uint32_t> next_case;
  // The program's block pairing (isa/blocks.h), kept for its room.
  isa::BlockPairs pairs;
};

// Fails (InvalidArgument) on unbalanced control flow; the validator reports
// that too, but the interpreter must never trust its input.
absl::StatusOr<ControlMap> BuildControlMap(const isa::Program& program);
// The same into `map`, in the room its vectors already have (the judge
// keeps one map for all its cases).
absl::Status BuildControlMap(const isa::Program& program, ControlMap& map);

}  // namespace atomfuzz::oracle

#endif  // ATOMFUZZ_ORACLE_CONTROL_MAP_H_
