// How big a case is, by the measures the reducer shrinks and the reports and
// triage tables print.
#ifndef ATOMFUZZ_FUZZ_TRIAGE_CASE_SIZE_H_
#define ATOMFUZZ_FUZZ_TRIAGE_CASE_SIZE_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "isa/case_file.h"

namespace atomfuzz::fuzz {

struct CaseSize {
  int64_t instructions = 0;  // non-declaration instructions, ret included
  int64_t threads = 0;       // group count times group size (ps: ThreadCount)
  int64_t resources = 0;     // u# and g#
  int64_t words = 0;         // of every u# and g#
  // Lexicographic (instructions, threads, resources, words).
  bool operator<(const CaseSize& o) const;
  bool operator==(const CaseSize&) const = default;
  // "7 instructions, 64 threads, 2 resources, 20 words"
  std::string ToString() const;
};
CaseSize SizeOf(const isa::Case& c);

// Index of the first non-declaration instruction.
size_t FirstBodyInstruction(const isa::Program& p);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_TRIAGE_CASE_SIZE_H_
