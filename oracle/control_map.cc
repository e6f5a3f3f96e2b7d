#include "oracle/control_map.h"

#include "absl/strings/str_cat.h"

namespace atomfuzz::oracle {

using isa::Op;

absl::StatusOr<ControlMap> BuildControlMap(const isa::Program& program) {
  const auto& code = program.instructions;
  ControlMap map;
  map.target.assign(code.size(), 0);
  map.cases.resize(code.size());
  std::vector<uint32_t> open;  // indices of open if/loop/switch
  std::vector<uint32_t> pending_if;  // per open if: its else, or UINT32_MAX
  auto bad = [&](uint32_t i, const char* what) {
    return absl::InvalidArgumentError(
        absl::StrCat("line ", code[i].line, ": ", what));
  };
  auto innermost = [&](bool loops_only) -> int64_t {
    for (auto it = open.rbegin(); it != open.rend(); ++it) {
      const Op op = code[*it].op;
      if (op == Op::kLoop || (!loops_only && op == Op::kSwitch)) return *it;
    }
    return -1;
  };
  for (uint32_t i = 0; i < code.size(); ++i) {
    switch (code[i].op) {
      case Op::kIfZ: case Op::kIfNz: case Op::kLoop: case Op::kSwitch:
        open.push_back(i);
        break;
      case Op::kElse:
        if (open.empty() || (code[open.back()].op != Op::kIfZ &&
                             code[open.back()].op != Op::kIfNz) ||
            map.target[open.back()] != 0) {
          return bad(i, "else without if");
        }
        map.target[open.back()] = i + 1;  // the false branch starts here
        map.target[i] = UINT32_MAX;       // patched at endif
        open.push_back(i);
        break;
      case Op::kEndIf: {
        if (open.empty()) return bad(i, "endif without if");
        uint32_t top = open.back();
        if (code[top].op == Op::kElse) {
          map.target[top] = i;
          open.pop_back();
          top = open.back();
        } else if (code[top].op == Op::kIfZ || code[top].op == Op::kIfNz) {
          map.target[top] = i;
        } else {
          return bad(i, "endif without if");
        }
        open.pop_back();
        break;
      }
      case Op::kEndLoop:
        if (open.empty() || code[open.back()].op != Op::kLoop) {
          return bad(i, "endloop without loop");
        }
        map.target[open.back()] = i;
        map.target[i] = open.back();
        open.pop_back();
        break;
      case Op::kEndSwitch:
        if (open.empty() || code[open.back()].op != Op::kSwitch) {
          return bad(i, "endswitch without switch");
        }
        map.target[open.back()] = i;
        open.pop_back();
        break;
      case Op::kCase: case Op::kDefault:
        if (open.empty() || code[open.back()].op != Op::kSwitch) {
          return bad(i, "case outside switch");
        }
        map.target[i] = open.back();
        map.cases[open.back()].push_back(i);
        break;
      case Op::kBreak: case Op::kBreakcZ: case Op::kBreakcNz: {
        const int64_t t = innermost(false);
        if (t < 0) return bad(i, "break outside loop or switch");
        map.target[i] = static_cast<uint32_t>(t);  // patched below
        break;
      }
      case Op::kContinue: case Op::kContinuecZ: case Op::kContinuecNz: {
        const int64_t t = innermost(true);
        if (t < 0) return bad(i, "continue outside loop");
        map.target[i] = static_cast<uint32_t>(t);
        break;
      }
      default:
        break;
    }
  }
  if (!open.empty()) return bad(open.back(), "block not closed");
  // break -> the end of its loop/switch (known only now).
  for (uint32_t i = 0; i < code.size(); ++i) {
    const Op op = code[i].op;
    if (op == Op::kBreak || op == Op::kBreakcZ || op == Op::kBreakcNz) {
      map.target[i] = map.target[map.target[i]];
    }
  }
  return map;
}

}  // namespace atomfuzz::oracle
