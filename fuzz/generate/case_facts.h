// What the structure-aware mutators need to know about a case, gathered once
// per attempt from its declarations, resources and control flow: which
// memories an atomic may target and their bounds (for edge addresses), which
// registers a source may read, and where each block ends (so deletions keep
// control flow balanced).
#ifndef ATOMFUZZ_FUZZ_GENERATE_CASE_FACTS_H_
#define ATOMFUZZ_FUZZ_GENERATE_CASE_FACTS_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "fuzz/generate/choices.h"
#include "isa/case_file.h"
#include "isa/operand.h"

namespace atomfuzz::fuzz {

// One declared u# or g#.
struct MemoryFacts {
  isa::Operand reg;                   // u# or g#, as an atomic names it
  uint8_t kind = 0;                   // one isa::MemoryBit
  isa::Dim dim = isa::Dim::kUnknown;  // typed
  std::array<uint32_t, 3> extent = {1, 1, 1};  // typed: size per coordinate
  uint32_t stride = 0;     // structured: bytes per structure
  uint32_t count = 0;      // structured: structures
  uint64_t bytes = 0;      // raw and structured: size of the view or g#
  bool counter = false;    // a structured u# whose view has a counter
  bool atomics_ok = true;  // typed: declared uint or sint (E-24)
  size_t decl = 0;         // index of its declaration
};

struct CaseFacts {
  size_t code_begin = 0;  // index of the first instruction that is no dcl
  uint32_t temps = 0;     // r0..r(temps-1); 0 without dcl_temps
  std::optional<size_t> temps_decl;
  std::optional<size_t> thread_group_decl;
  std::vector<MemoryFacts> memories;
  // Declared system values and their components (flattened: .x).
  std::vector<std::pair<isa::RegFile, uint8_t>> inputs;
  // Per instruction, the other end of its block: if/loop/switch -> its end,
  // end -> its opener, else -> its endif, case/default -> the next label or
  // endswitch of the same switch. SIZE_MAX elsewhere or when unbalanced.
  std::vector<size_t> partner;

  const MemoryFacts* Find(const isa::Operand& reg) const;
  // Components of vThreadID... declared for `file` (0 if none).
  uint8_t InputMask(isa::RegFile file) const;
  // Last index before which an instruction may go (the final ret's).
  size_t code_end() const { return partner.empty() ? 0 : partner.size() - 1; }
};

CaseFacts GatherFacts(const isa::Case& c);

// Address components the target takes (spec 1.2): 1 raw, 2 structured, the
// dimension's coordinates for typed.
int AddressWidth(const MemoryFacts& m);

// Whether instruction `op` may target memory `m` (memory kind, typed
// format; counters need a counter).
bool CanTarget(isa::Op op, const MemoryFacts& m);

// The range [first, last] a deletion of instruction `i` removes so that the
// blocks stay balanced: a whole block for an opener or its end, the else
// branch for an else, one case for a label, else the instruction itself.
// nullopt for declarations, the final ret, or unbalanced code.
std::optional<std::pair<size_t, size_t>> DeletionRange(const isa::Program& p,
                                                       const CaseFacts& f,
                                                       size_t i);

// Whether an instruction may be inserted before index `pos`: inside the code,
// not before the first label of a switch.
bool IsInsertionPoint(const isa::Program& p, const CaseFacts& f, size_t pos);

// A random instruction of the code other than the final ret; nullopt when
// there is none.
std::optional<size_t> PickCode(Choices& choices, const CaseFacts& f);
// A random insertion point (IsInsertionPoint), or nullopt.
std::optional<size_t> PickInsertionPoint(Choices& choices,
                                         const isa::Program& p,
                                         const CaseFacts& f);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_GENERATE_CASE_FACTS_H_
