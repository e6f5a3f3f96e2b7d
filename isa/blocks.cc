#include "isa/blocks.h"

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"

namespace atomfuzz::isa {

namespace {

// PairBlocks over the instructions `each` visits (in program order), which
// include every block instruction.
template <typename ForEach>
absl::Status Pair(absl::Span<const Instruction> code, const ForEach& each,
                  BlockPairs& out) {
  constexpr uint32_t kNone = BlockPairs::kNone;
  // Only members' entries (and those they name) are read: no fill, as this
  // runs on every case compiled, judged and mutated.
  out.opener.resize(code.size());
  out.next.resize(code.size());
  out.close.resize(code.size());
  // Open blocks' openers, and the last else or label of each; inline up to
  // what no generated program reaches.
  absl::InlinedVector<uint32_t, 16> open, last;
  // Elses, labels, closers and exits take their opener's `close`, known
  // only at its closer: patched at the end, over the members only (this
  // runs on every case judged and mutated).
  std::vector<uint32_t>& members = out.members;
  members.clear();
  auto bad = [&](uint32_t i, const char* what) {
    return absl::InvalidArgumentError(
        absl::StrCat("line ", code[i].line, ": ", what));
  };
  auto kind = [&](uint32_t i) { return code[i].info().block_kind; };
  auto innermost = [&](bool loops_only) -> uint32_t {
    for (auto it = open.rbegin(); it != open.rend(); ++it) {
      if (kind(*it) == BlockKind::kLoop ||
          (!loops_only && kind(*it) == BlockKind::kSwitch)) {
        return *it;
      }
    }
    return kNone;
  };
  absl::Status status = absl::OkStatus();
  auto fail = [&](uint32_t i, const char* what) { status = bad(i, what); };
  each([&](uint32_t i) {
    if (!status.ok()) return;
    const OpcodeInfo& row = code[i].info();
    switch (row.block) {
      case BlockShape::kNone: break;
      case BlockShape::kOpen:
        out.opener[i] = i;
        members.push_back(i);
        open.push_back(i);
        last.push_back(i);
        break;
      case BlockShape::kMiddle:
      case BlockShape::kLabel: {
        const bool middle = row.block == BlockShape::kMiddle;
        if (open.empty() || kind(open.back()) != row.block_kind ||
            (middle && last.back() != open.back())) {
          return fail(i, middle ? "else without if" : "case outside switch");
        }
        out.opener[i] = open.back();
        out.next[last.back()] = i;
        last.back() = i;
        members.push_back(i);
        break;
      }
      case BlockShape::kClose: {
        if (open.empty() || kind(open.back()) != row.block_kind) {
          return fail(i, row.block_kind == BlockKind::kIf ? "endif without if"
                         : row.block_kind == BlockKind::kLoop
                             ? "endloop without loop"
                             : "endswitch without switch");
        }
        const uint32_t o = open.back();
        out.opener[i] = o;
        out.next[last.back()] = i;
        out.close[o] = i;
        members.push_back(i);
        open.pop_back();
        last.pop_back();
        break;
      }
      case BlockShape::kBreak:
      case BlockShape::kContinue: {
        const bool is_break = row.block == BlockShape::kBreak;
        const uint32_t o = innermost(!is_break);
        if (o == kNone) {
          return fail(i, is_break ? "break outside loop or switch"
                                  : "continue outside loop");
        }
        out.opener[i] = o;
        members.push_back(i);
        break;
      }
    }
  });
  if (!status.ok()) return status;
  if (!open.empty()) return bad(open.back(), "block not closed");
  for (uint32_t i : members)
    out.close[i] = out.close[out.opener[i]];  // closers: their own
  return absl::OkStatus();
}

}  // namespace

absl::Status PairBlocks(absl::Span<const Instruction> code, BlockPairs& out) {
  return Pair(
      code,
      [&](const auto& visit) {
        for (uint32_t i = 0; i < code.size(); ++i) visit(i);
      },
      out);
}

absl::Status PairBlocks(absl::Span<const Instruction> code,
                        absl::Span<const uint32_t> candidates,
                        BlockPairs& out) {
  return Pair(
      code,
      [&](const auto& visit) {
        for (uint32_t i : candidates) visit(i);
      },
      out);
}

}  // namespace atomfuzz::isa
