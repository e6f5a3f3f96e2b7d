// The structure-aware mutator (libFuzzer's MutationDispatcher shape): a table
// of {function, name} mutations (fuzz/mutate/mutations.h), one picked at random
// and retried up to max_attempts times until one applies. Each attempt works on
// a copy (one reused case, mutator.cc); a result that fails isa::Validate,
// exceeds the limits or equals the input is dropped, so every case that
// leaves here is valid. The names of the applied mutations are returned and
// appended to the case's metadata "mutations", so a finding shows how it
// was made.
#ifndef ATOMFUZZ_FUZZ_MUTATE_MUTATOR_H_
#define ATOMFUZZ_FUZZ_MUTATE_MUTATOR_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "fuzz/generate/case_limits.h"
#include "fuzz/generate/choices.h"
#include "fuzz/generate/policy.h"
#include "fuzz/mutate/mutations.h"
#include "isa/case_file.h"

namespace atomfuzz::fuzz {

// The stages a mutation serves, as bits: a dispatch or a g# means nothing
// to a draw, and a draw nothing to a dispatch.
inline constexpr uint8_t kForCompute = 1, kForPixel = 2,
                         kForBoth = kForCompute | kForPixel;

struct NamedMutation {
  MutationFn fn;
  absl::string_view name;  // snake_case, as recorded in "mutations"
  uint8_t stages = kForBoth;
};
// Every mutation, in a fixed order: those of compute cases first.
absl::Span<const NamedMutation> AllMutations();
// Those that serve `stage`, in the same order; the dispatcher picks among
// them only, so a pixel case never draws a mutation that cannot apply.
absl::Span<const NamedMutation> MutationsFor(isa::Stage stage);

struct MutatorOptions {
  int max_attempts = 100;  // per applied mutation, as in libFuzzer
  int max_stack = 4;       // Mutate() applies 1..max_stack mutations
  CaseLimits limits;
};

// The metadata key that records applied mutations, oldest first; only the
// last kMaxRecordedMutations names are kept, after a "..." marker.
inline constexpr absl::string_view kMutationsKey = "mutations";
inline constexpr size_t kMaxRecordedMutations = 32;

class Mutator {
 public:
  // `policy` must outlive the mutator.
  explicit Mutator(const Policy& policy, MutatorOptions options = {});

  // 1..max_stack mutations; the names of those applied (none if nothing
  // applied within the attempts; the case is then unchanged).
  std::vector<std::string> Mutate(isa::Case& c, Choices& choices) const;
  // Mutate() on a copy of `parent`, returned, without copying the parent
  // first; the names of the mutations applied are appended to `names`.
  isa::Case Mutated(const isa::Case& parent, Choices& choices,
                    std::vector<std::string>& names) const;
  // One mutation picked at random; its name, or "" if none applied.
  std::string MutateOnce(isa::Case& c, Choices& choices) const;
  // Applies `m` once; keeps the result if it is valid, within the limits
  // and different. Expectations and the description are dropped: they
  // described the parent.
  bool Apply(const NamedMutation& m, isa::Case& c, Choices& choices) const;

  // A valid case mixing `a` and `b` (fuzz/mutate/crossover.h); when no splice
  // is valid within the attempts, a mutated `a`.
  isa::Case CrossOver(const isa::Case& a, const isa::Case& b,
                      Choices& choices) const;

  const MutatorOptions& options() const { return options_; }

 private:
  // `original_valid`: `original` is known to pass isa::Validate.
  bool Keep(isa::Case& candidate, const isa::Case& original,
            bool original_valid) const;
  // As the public ones, on a stack under way (mutator.cc), whose attempts
  // share one scratch case.
  struct Stack;
  std::string MutateOnce(Stack& s, Choices& choices) const;
  bool Apply(const NamedMutation& m, Stack& s, Choices& choices) const;

  const Policy* policy_;
  MutatorOptions options_;
};

// Mutator(policy).Mutated(parent, choices, names): what a campaign calls.
isa::Case MutatedCase(const isa::Case& parent, Choices& choices,
                      const Policy& policy, std::vector<std::string>& names);

// Appends `names` to the case's "mutations" metadata.
void RecordMutations(isa::Case& c, const std::vector<std::string>& names);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_MUTATE_MUTATOR_H_
