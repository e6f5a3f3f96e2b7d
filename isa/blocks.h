// Which instructions belong to which block: if/else/endif, loop/endloop,
// switch/case/default/endswitch, and the block each break and continue
// leaves (spec 3.1), worked out once per program from the opcode table's
// block columns. Readers (the oracle's and the fast executor's jumps, the
// reducer, the mutator's facts) take their pairing from here and keep their
// own jump semantics: only the syntax is shared.
#ifndef ATOMFUZZ_ISA_BLOCKS_H_
#define ATOMFUZZ_ISA_BLOCKS_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "isa/program.h"

namespace atomfuzz::isa {

struct BlockPairs {
  static constexpr uint32_t kNone = UINT32_MAX;
  // Per instruction index, defined at the members (below) only: elsewhere
  // they hold whatever the room held (no fill per program).
  // `opener`: of an opener, itself; of an else, case, default or closer,
  // its block's opener; of a break, the innermost loop's or switch's; of a
  // continue, the innermost loop's.
  std::vector<uint32_t> opener;
  // `next`: of an opener, else, case or default, the block's next else,
  // case or default, or else its closer.
  std::vector<uint32_t> next;
  // `close`: the closer of the block `opener` names.
  std::vector<uint32_t> close;
  // Every instruction with a block shape, in program order: readers walk
  // these instead of the whole program.
  std::vector<uint32_t> members;
};

// Pairs the blocks of `p` into `out` (its vectors' room reused); an
// InvalidArgument naming the line of the first instruction where they do
// not balance. The validator reports every such place (control_flow_check);
// a validated program always pairs.
absl::Status PairBlocks(absl::Span<const Instruction> code, BlockPairs& out);
// The same over `candidates` only: ascending indices that include every
// block instruction (the fast executor's list of control instructions).
absl::Status PairBlocks(absl::Span<const Instruction> code,
                        absl::Span<const uint32_t> candidates, BlockPairs& out);
inline absl::Status PairBlocks(const Program& p, BlockPairs& out) {
  return PairBlocks(p.instructions, out);
}

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_BLOCKS_H_
