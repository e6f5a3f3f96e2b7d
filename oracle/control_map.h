// Where each structured control-flow instruction transfers to, computed once
// per program so threads can be interpreted one instruction at a time.
#ifndef ATOMFUZZ_ORACLE_CONTROL_MAP_H_
#define ATOMFUZZ_ORACLE_CONTROL_MAP_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
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
  // switch: the case/default instructions directly inside it, in order.
  std::vector<std::vector<uint32_t>> cases;
};

// Fails (InvalidArgument) on unbalanced control flow; the validator reports
// that too, but the interpreter must never trust its input.
absl::StatusOr<ControlMap> BuildControlMap(const isa::Program& program);

}  // namespace atomfuzz::oracle

#endif  // ATOMFUZZ_ORACLE_CONTROL_MAP_H_
