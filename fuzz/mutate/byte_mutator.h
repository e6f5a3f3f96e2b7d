// The engines' custom mutators over bytes, shared by libFuzzer
// (LLVMFuzzerCustomMutator / CustomCrossOver, fuzz/engines/libfuzzer_main.cc)
// and AFL++ (afl_custom_fuzz, fuzz/engines/afl_mutator.cc): decode the input
// the way the harness does (case text, else generator choices), mutate or cross
// the case structurally (fuzz/mutate/mutator.h), and write it back as case
// text. The output is therefore always a valid case file; seeds and findings
// stay readable.
#ifndef ATOMFUZZ_FUZZ_MUTATE_BYTE_MUTATOR_H_
#define ATOMFUZZ_FUZZ_MUTATE_BYTE_MUTATOR_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "fuzz/generate/policy.h"
#include "fuzz/mutate/case_decoder.h"
#include "fuzz/mutate/mutator.h"
#include "isa/case_file.h"

namespace atomfuzz::fuzz {

class ByteMutator {
 public:
  // `policy` must outlive the mutator.
  ByteMutator(const Policy& policy, DecodeOptions decode);

  // Mutates the case `data` decodes to and writes its text to `out`
  // (capacity `max_size`; may be `data` itself). Returns the new size, or 0
  // when the input cannot be decoded, no mutation applied, or the text does
  // not fit: the engine then mutates bytes instead.
  size_t Mutate(absl::Span<const uint8_t> data, uint8_t* out, size_t max_size,
                uint64_t seed) const;
  // The same for a crossover of the cases `a` and `b` decode to.
  size_t CrossOver(absl::Span<const uint8_t> a, absl::Span<const uint8_t> b,
                   uint8_t* out, size_t max_size, uint64_t seed) const;

  // The mutations the last successful call applied, space-separated (AFL++
  // names queue entries after them).
  const std::string& last_mutations() const { return last_; }

 private:
  std::optional<isa::Case> Decode(absl::Span<const uint8_t> data) const;
  size_t Write(const isa::Case& c, const std::vector<std::string>& names,
               uint8_t* out, size_t max_size) const;

  const Policy* policy_;
  DecodeOptions decode_;
  Mutator mutator_;
  mutable std::string last_;
};

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_MUTATE_BYTE_MUTATOR_H_
