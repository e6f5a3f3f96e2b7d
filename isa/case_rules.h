// What the validator gathers from a program's declarations, and the rules
// on what a case adds to its program (bindings, counters, expectations),
// which read them. Internal to isa/: the validator's two halves.
#ifndef ATOMFUZZ_ISA_CASE_RULES_H_
#define ATOMFUZZ_ISA_CASE_RULES_H_

#include <cstdint>
#include <optional>

#include "isa/case_file.h"
#include "isa/diagnostics.h"
#include "isa/program.h"
#include "isa/small_sorted_map.h"

namespace atomfuzz::isa {

// Declarations gathered in one pass, then consulted by the instruction checks.
struct Declarations {
  std::optional<uint32_t> temps;
  SmallSortedMap<uint32_t, uint32_t> indexable;       // x# -> size
  SmallSortedMap<uint32_t, const Instruction*> uavs;  // u# -> dcl
  SmallSortedMap<uint32_t, const Instruction*> tgsm;  // g# -> dcl
  SmallSortedMap<RegFile, uint8_t> inputs;            // system value -> mask
  SmallSortedMap<uint32_t, uint8_t> pixel_inputs;     // v# -> mask
  const Instruction* thread_group = nullptr;          // the first one
};

// The rules on what the case adds to its program.
void CheckCaseRules(const Case& c, const Declarations& d, DiagnosticSink& sink);

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_CASE_RULES_H_
