// Bounds that keep one fuzz input cheap: a harness must answer in
// milliseconds, and a few bytes of text (`groups 65535, 65535, 64`,
// `fill(0, 4000000)`) can otherwise ask for minutes of oracle time or
// gigabytes of memory. Work is counted statically, threads x instructions;
// loops are bounded separately by the instruction budgets of the run.
#ifndef ATOMFUZZ_FUZZ_GENERATE_CASE_LIMITS_H_
#define ATOMFUZZ_FUZZ_GENERATE_CASE_LIMITS_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"
#include "isa/case_file.h"

namespace atomfuzz::fuzz {

struct CaseLimits {
  // Threads x instructions; the corpus's largest case has 6144.
  uint64_t max_work = uint64_t{1} << 14;
  uint64_t max_words = uint64_t{1} << 16;  // UAV words, all views together
  size_t max_instructions = 1024;          // declarations included
};

// Threads of the dispatch times instructions of the shader (saturating).
uint64_t CaseWork(const isa::Case& c);
// Words of all UAV views.
uint64_t CaseWords(const isa::Case& c);

// Whether the case is within every bound (no message: the mutators' hot path).
bool WithinLimits(const isa::Case& c, const CaseLimits& limits);
// OK, or OutOfRange naming the bound the case exceeds.
absl::Status CheckLimits(const isa::Case& c, const CaseLimits& limits);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_GENERATE_CASE_LIMITS_H_
