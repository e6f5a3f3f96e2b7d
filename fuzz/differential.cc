#include "fuzz/differential.h"

namespace atomfuzz::fuzz {

absl::StatusOr<Differential> RunAndJudge(const isa::Case& c, const RunOptions& run,
                                         const oracle::JudgeOptions& judge) {
  absl::StatusOr<isa::Outcome> outcome = RunCase(c, run);
  if (!outcome.ok()) return outcome.status();
  absl::StatusOr<oracle::Verdict> verdict = oracle::Judge(c, *outcome, judge);
  if (!verdict.ok()) return verdict.status();
  return Differential{*std::move(outcome), *std::move(verdict)};
}

}  // namespace atomfuzz::fuzz
