// Control-flow targets, from program indices to compiled indices: each
// if, else, loop and switch learns where its block goes on, each endloop
// where it began, each switch its case labels; unbalanced blocks, and a
// break or continue outside any block it can leave, are refused.
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "targets/fast/compiled.h"

namespace atomfuzz::targets::fast {

using isa::Op;

absl::Status ResolveJumps(const std::vector<isa::Instruction>& program, CompileTables& tables,
                          CompiledCase& out) {
  std::vector<uint32_t>& open = tables.open_blocks;  // if/loop/switch/else
  open.clear();
  const std::vector<uint32_t>& compiled_of = tables.compiled_of;
  auto at = [&](uint32_t p) -> Decoded& { return out.code[compiled_of[p]]; };
  auto fail = [&](uint32_t p) {
    return absl::InvalidArgumentError(
        absl::StrCat("unbalanced control flow at line ", program[p].line));
  };
  // Only control instructions open, close or need a block.
  for (const uint32_t p : tables.control) {
    switch (program[p].op) {
      case Op::kIfZ: case Op::kIfNz: case Op::kLoop: case Op::kSwitch:
        open.push_back(p);
        if (program[p].op == Op::kSwitch) {
          at(p).case_value = static_cast<uint32_t>(out.switch_values.size());
          out.switch_values.emplace_back();
        }
        break;
      case Op::kElse:
        if (open.empty() || (program[open.back()].op != Op::kIfZ &&
                             program[open.back()].op != Op::kIfNz)) {
          return fail(p);
        }
        at(open.back()).target = compiled_of[p];  // false branch: the else
        open.push_back(p);
        break;
      case Op::kEndIf: {
        if (open.empty()) return fail(p);
        if (program[open.back()].op == Op::kElse) {
          at(open.back()).target = compiled_of[p];
          open.pop_back();
        } else if (program[open.back()].op == Op::kIfZ || program[open.back()].op == Op::kIfNz) {
          at(open.back()).target = compiled_of[p];
        } else {
          return fail(p);
        }
        open.pop_back();
        break;
      }
      case Op::kEndLoop:
        if (open.empty() || program[open.back()].op != Op::kLoop) return fail(p);
        at(open.back()).target = compiled_of[p];
        at(p).target = compiled_of[open.back()];
        open.pop_back();
        break;
      case Op::kEndSwitch:
        if (open.empty() || program[open.back()].op != Op::kSwitch) return fail(p);
        at(open.back()).target = compiled_of[p];
        open.pop_back();
        break;
      case Op::kCase: case Op::kDefault: {
        if (open.empty() || program[open.back()].op != Op::kSwitch) return fail(p);
        const Decoded& label = at(p);
        if (program[p].op == Op::kCase) {
          out.switch_values[at(open.back()).case_value].push_back(label.case_value);
        }
        break;
      }
      case Op::kBreak: case Op::kBreakcZ: case Op::kBreakcNz:
      case Op::kContinue: case Op::kContinuecZ: case Op::kContinuecNz: {
        const bool is_break = program[p].op == Op::kBreak || program[p].op == Op::kBreakcZ ||
                              program[p].op == Op::kBreakcNz;
        bool found = false;
        for (auto it = open.rbegin(); it != open.rend(); ++it) {
          const Op o = program[*it].op;
          if (o == Op::kLoop || (is_break && o == Op::kSwitch)) {
            found = true;
            break;
          }
        }
        if (!found) return fail(p);
        break;
      }
      default:
        break;
    }
  }
  if (!open.empty()) return fail(open.back());
  return absl::OkStatus();
}

}  // namespace atomfuzz::targets::fast
