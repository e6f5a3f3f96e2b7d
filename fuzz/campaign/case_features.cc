#include "fuzz/campaign/case_features.h"

#include <cstdint>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "fuzz/campaign/campaign_stats.h"
#include "fuzz/differential.h"
#include "targets/isolation/run_in_child.h"

namespace atomfuzz::fuzz {
namespace {

constexpr absl::string_view kNoTarget = "no target: ";

// In the child: "<i> <feature>...\n" for each case of [first, end) run
// before `budget_seconds` pass.
std::string RunCases(const std::vector<isa::Case>& cases, size_t first,
                     size_t end, const TargetMaker& make,
                     double budget_seconds) {
  absl::StatusOr<std::unique_ptr<targets::Target>> target = make();
  if (!target.ok()) return absl::StrCat(kNoTarget, target.status().message());
  const absl::Time deadline = absl::Now() + absl::Seconds(budget_seconds);
  // CountCoverage also counts the matrix; one room for all runs.
  auto counters = std::make_unique<WorkerCounters>();
  std::vector<int> features;
  RunOneOptions run;
  run.judge = false;  // features come from the run alone
  std::string out;
  for (size_t i = first; i < end && absl::Now() < deadline; ++i) {
    RunResult r = RunOne(cases[i], **target, run);
    features.clear();
    if (r.outcome.has_value())
      CountCoverage(cases[i], *r.outcome, *counters, features);
    absl::StrAppend(&out, i, features.empty() ? "" : " ",
                    absl::StrJoin(features, " "), "\n");
  }
  return out;
}

// Reads RunCases's lines into `into`.
absl::Status Parse(const std::string& answer, std::vector<CaseFeatures>& into) {
  if (absl::StartsWith(answer, kNoTarget))
    return absl::FailedPreconditionError(answer.substr(kNoTarget.size()));
  for (absl::string_view line :
       absl::StrSplit(answer, '\n', absl::SkipEmpty())) {
    std::vector<absl::string_view> words = absl::StrSplit(line, ' ');
    size_t i = 0;
    if (!absl::SimpleAtoi(words[0], &i) || i >= into.size()) continue;
    into[i].ran = true;
    for (size_t w = 1; w < words.size(); ++w) {
      int f = 0;
      if (absl::SimpleAtoi(words[w], &f) && f >= 0 && f < kFeatureCount)
        into[i].features.push_back(f);
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<CaseFeatures>> FeaturesInChild(
    const std::vector<isa::Case>& cases, const TargetMaker& make,
    double budget_seconds, double timeout_seconds) {
  std::vector<CaseFeatures> out(cases.size());
  if (cases.empty()) return out;
  const absl::Time deadline = absl::Now() + absl::Seconds(budget_seconds);
  absl::StatusOr<std::string> all = targets::RunInChild(
      [&] { return RunCases(cases, 0, cases.size(), make, budget_seconds); },
      budget_seconds + timeout_seconds + 5);
  if (all.ok()) {
    if (absl::Status s = Parse(*all, out); !s.ok()) return s;
    return out;
  }
  // Something killed the child: one child per case finds which.
  for (size_t i = 0; i < cases.size() && absl::Now() < deadline; ++i) {
    absl::StatusOr<std::string> one = targets::RunInChild(
        [&] { return RunCases(cases, i, i + 1, make, timeout_seconds); },
        timeout_seconds + 5);
    if (!one.ok()) {
      out[i].ran = true;
      out[i].killed = true;
      continue;
    }
    if (absl::Status s = Parse(*one, out); !s.ok()) return s;
  }
  return out;
}

}  // namespace atomfuzz::fuzz
