#include "oracle/control_map.h"

namespace atomfuzz::oracle {

using isa::BlockShape;
using isa::Op;

absl::StatusOr<ControlMap> BuildControlMap(const isa::Program& program) {
  ControlMap map;
  if (absl::Status s = BuildControlMap(program, map); !s.ok()) return s;
  return map;
}

absl::Status BuildControlMap(const isa::Program& program, ControlMap& map) {
  const auto& code = program.instructions;
  const isa::BlockPairs& pairs = map.pairs;
  if (absl::Status s = isa::PairBlocks(program, map.pairs); !s.ok()) return s;
  map.target.assign(code.size(), 0);
  // Filled at the first switch: most programs have none.
  map.next_case.clear();
  // The label after `i` in its switch, or kNoCase at its endswitch.
  auto next_label = [&](uint32_t i) {
    const uint32_t n = pairs.next[i];
    return code[n].info().block == BlockShape::kLabel ? n : ControlMap::kNoCase;
  };
  for (const uint32_t i : pairs.members) {
    const isa::OpcodeInfo& row = code[i].info();
    switch (row.block) {
      case BlockShape::kOpen:
        if (row.block_kind == isa::BlockKind::kIf) {
          // The false branch starts after the else, or at the endif.
          const uint32_t n = pairs.next[i];
          map.target[i] = code[n].op == Op::kElse ? n + 1 : n;
        } else {
          map.target[i] = pairs.close[i];
        }
        if (row.block_kind == isa::BlockKind::kSwitch) {
          if (map.next_case.empty())
            map.next_case.assign(code.size(), ControlMap::kNoCase);
          map.next_case[i] = next_label(i);
        }
        break;
      case BlockShape::kMiddle:
      case BlockShape::kBreak: map.target[i] = pairs.close[i]; break;
      case BlockShape::kLabel:
        map.target[i] = pairs.opener[i];
        map.next_case[i] = next_label(i);
        break;
      case BlockShape::kContinue: map.target[i] = pairs.opener[i]; break;
      case BlockShape::kClose:
        if (row.block_kind == isa::BlockKind::kLoop)
          map.target[i] = pairs.opener[i];
        break;
      case BlockShape::kNone: break;
    }
  }
  return absl::OkStatus();
}

}  // namespace atomfuzz::oracle
