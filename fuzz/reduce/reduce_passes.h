// The reducer's named passes. A pass looks at the current case and proposes
// edits, each making one smaller candidate; the reducer (reducer.cc) applies
// an edit to a copy, skips it unless isa::Validate accepts the result and
// ReductionMeasure strictly decreases (so reduction always terminates), and
// keeps it if the case is still interesting. Edits are proposed
// largest-first (whole blocks before single instructions, halving before
// decrementing), as in delta debugging.
#ifndef ATOMFUZZ_FUZZ_REDUCE_REDUCE_PASSES_H_
#define ATOMFUZZ_FUZZ_REDUCE_REDUCE_PASSES_H_

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "absl/strings/string_view.h"
#include "fuzz/triage/case_size.h"
#include "isa/case_file.h"

namespace atomfuzz::fuzz {

// Changes a copy of the case; false when it does not apply.
using ReduceEdit = std::function<bool(isa::Case&)>;

struct ReducePass {
  absl::string_view name;
  std::vector<ReduceEdit> (*edits)(const isa::Case& c);
};

// In the order the reducer runs them: cheap, large removals first.
std::span<const ReducePass> AllReducePasses();

// Code passes (reduce_code_passes.cc).
std::vector<ReduceEdit> DropBlockEdits(const isa::Case& c);    // drop-blocks
std::vector<ReduceEdit> DropChunkEdits(const isa::Case& c);    // drop-chunks
std::vector<ReduceEdit> UnwrapBlockEdits(const isa::Case& c);  // unwrap-blocks
std::vector<ReduceEdit> DropInstructionEdits(
    const isa::Case& c);  // drop-instructions
std::vector<ReduceEdit> TidyDeclarationEdits(
    const isa::Case& c);  // tidy-declarations
// Operand passes (reduce_operand_passes.cc).
std::vector<ReduceEdit> ConstantSourceEdits(
    const isa::Case& c);  // constant-sources
// Data passes (reduce_data_passes.cc).
std::vector<ReduceEdit> DropExpectationEdits(
    const isa::Case& c);  // drop-expectations
std::vector<ReduceEdit> DropResourceEdits(
    const isa::Case& c);                                      // drop-resources
std::vector<ReduceEdit> DropThreadEdits(const isa::Case& c);  // drop-threads
std::vector<ReduceEdit> DropWordEdits(const isa::Case& c);    // drop-words
std::vector<ReduceEdit> SimplifyValueEdits(
    const isa::Case& c);  // simplify-values

// Compared lexicographically: body instructions, threads, resources, words,
// declarations, declared temps, expectations, register sources, then the
// sum of every value (immediates, initial words, counters). Every edit
// lowers one entry without raising an earlier one.
std::vector<uint64_t> ReductionMeasure(const isa::Case& c);
// Source operands that read a register or system value, not an immediate.
uint64_t RegisterSources(const isa::Program& p);

// Whether any non-declaration instruction names u#slot (tgsm: g#slot).
bool UsesMemory(const isa::Program& p, bool tgsm, uint32_t slot);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_REDUCE_REDUCE_PASSES_H_
