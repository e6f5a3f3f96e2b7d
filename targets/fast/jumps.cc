// Control-flow targets, from program indices to compiled indices: each
// if, else, loop and switch learns where its block goes on, each endloop
// where it began, each switch its case labels. The pairing is isa's
// (isa/blocks.h), which refuses unbalanced blocks and a break or continue
// outside any block it can leave; where to jump is this executor's own.
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "targets/fast/compiled.h"

namespace atomfuzz::targets::fast {

using isa::BlockKind;
using isa::BlockShape;

absl::Status ResolveJumps(const std::vector<isa::Instruction>& program,
                          CompileTables& tables, CompiledCase& out) {
  isa::BlockPairs& pairs = tables.blocks;
  if (absl::Status s = isa::PairBlocks(program, tables.control, pairs);
      !s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("unbalanced control flow: ", s.message()));
  }
  const std::vector<uint32_t>& compiled_of = tables.compiled_of;
  auto at = [&](uint32_t p) -> Decoded& { return out.code[compiled_of[p]]; };
  // Only control instructions open, close or need a block.
  for (const uint32_t p : tables.control) {
    const isa::OpcodeInfo& row = program[p].info();
    switch (row.block) {
      case BlockShape::kOpen:
        // if: its false branch is the else, or the endif.
        at(p).target =
            compiled_of[row.block_kind == BlockKind::kIf ? pairs.next[p]
                                                         : pairs.close[p]];
        if (row.block_kind == BlockKind::kSwitch) {
          at(p).case_value = static_cast<uint32_t>(out.switch_values.size());
          out.switch_values.emplace_back();
        }
        break;
      case BlockShape::kMiddle:
        at(p).target = compiled_of[pairs.close[p]];
        break;
      case BlockShape::kClose:
        if (row.block_kind == BlockKind::kLoop)
          at(p).target = compiled_of[pairs.opener[p]];
        break;
      case BlockShape::kLabel:
        if (program[p].op == isa::Op::kCase) {
          out.switch_values[at(pairs.opener[p]).case_value].push_back(
              at(p).case_value);
        }
        break;
      default: break;
    }
  }
  return absl::OkStatus();
}

}  // namespace atomfuzz::targets::fast
