#include "oracle/control_map.h"

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"

namespace atomfuzz::oracle {

using isa::Op;

absl::StatusOr<ControlMap> BuildControlMap(const isa::Program& program) {
  ControlMap map;
  if (absl::Status s = BuildControlMap(program, map); !s.ok()) return s;
  return map;
}

absl::Status BuildControlMap(const isa::Program& program, ControlMap& map) {
  const auto& code = program.instructions;
  map.target.assign(code.size(), 0);
  // Filled at the first switch: most programs have none.
  map.next_case.clear();
  // Indices of open if/loop/switch, and of breaks: in place up to what no
  // generated program reaches.
  absl::InlinedVector<uint32_t, 32> open;
  absl::InlinedVector<uint32_t, 32> breaks;
  // Per open switch, its last case so far: kept in its target, which its
  // endswitch sets (0 until then: no case is at index 0).
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
      case Op::kSwitch:
        if (map.next_case.empty()) map.next_case.assign(code.size(), ControlMap::kNoCase);
        open.push_back(i);
        break;
      case Op::kIfZ: case Op::kIfNz: case Op::kLoop:
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
      case Op::kCase: case Op::kDefault: {
        if (open.empty() || code[open.back()].op != Op::kSwitch) {
          return bad(i, "case outside switch");
        }
        const uint32_t s = open.back();
        map.target[i] = s;
        map.next_case[map.target[s] == 0 ? s : map.target[s]] = i;
        map.target[s] = i;  // the last case so far
        break;
      }
      case Op::kBreak: case Op::kBreakcZ: case Op::kBreakcNz: {
        const int64_t t = innermost(false);
        if (t < 0) return bad(i, "break outside loop or switch");
        map.target[i] = static_cast<uint32_t>(t);  // patched below
        breaks.push_back(i);
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
  for (uint32_t i : breaks) map.target[i] = map.target[map.target[i]];
  return absl::OkStatus();
}

}  // namespace atomfuzz::oracle
