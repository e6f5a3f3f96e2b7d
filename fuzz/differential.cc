#include "fuzz/differential.h"

namespace atomfuzz::fuzz {

absl::StatusOr<Differential> RunAndJudge(const isa::Case& c, targets::Target& target,
                                         const oracle::JudgeOptions& judge) {
  absl::StatusOr<isa::Outcome> outcome = target.Run(c);
  if (!outcome.ok()) return outcome.status();
  absl::StatusOr<oracle::Verdict> verdict = oracle::Judge(c, *outcome, judge);
  if (!verdict.ok()) return verdict.status();
  return Differential{*std::move(outcome), *std::move(verdict)};
}

}  // namespace atomfuzz::fuzz
