// One differential test: run a case on a target, bring the outcome to the
// oracle's judge.
#ifndef ATOMFUZZ_FUZZ_DIFFERENTIAL_H_
#define ATOMFUZZ_FUZZ_DIFFERENTIAL_H_

#include "absl/status/statusor.h"
#include "isa/case_file.h"
#include "oracle/judge.h"
#include "targets/target.h"

namespace atomfuzz::fuzz {

struct Differential {
  isa::Outcome outcome;  // what the target produced
  oracle::Verdict verdict;
};

absl::StatusOr<Differential> RunAndJudge(const isa::Case& c, targets::Target& target,
                                         const oracle::JudgeOptions& judge = {});

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_DIFFERENTIAL_H_
