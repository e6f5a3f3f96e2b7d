#include "fuzz/generate/case_limits.h"

#include "absl/strings/str_cat.h"
#include "fuzz/generate/case_facts.h"

namespace atomfuzz::fuzz {

uint64_t CaseWork(const isa::Case& c) {
  const uint64_t threads = ThreadCount(c);  // at most 2^40
  const uint64_t n = c.shader.instructions.size();
  return n != 0 && threads > UINT64_MAX / n ? UINT64_MAX : threads * n;
}

uint64_t CaseWords(const isa::Case& c) {
  uint64_t words = 0;
  for (const isa::Resource& r : c.resources) words += r.init.size();
  return words;
}

bool WithinLimits(const isa::Case& c, const CaseLimits& limits) {
  return c.shader.instructions.size() <= limits.max_instructions &&
         CaseWork(c) <= limits.max_work && CaseWords(c) <= limits.max_words;
}

absl::Status CheckLimits(const isa::Case& c, const CaseLimits& limits) {
  if (c.shader.instructions.size() > limits.max_instructions) {
    return absl::OutOfRangeError(absl::StrCat(c.shader.instructions.size(),
                                              " instructions (limit ",
                                              limits.max_instructions, ")"));
  }
  if (const uint64_t w = CaseWork(c); w > limits.max_work) {
    return absl::OutOfRangeError(absl::StrCat(
        "work ", w, " thread-instructions (limit ", limits.max_work, ")"));
  }
  if (const uint64_t w = CaseWords(c); w > limits.max_words) {
    return absl::OutOfRangeError(
        absl::StrCat(w, " UAV words (limit ", limits.max_words, ")"));
  }
  return absl::OkStatus();
}

}  // namespace atomfuzz::fuzz
