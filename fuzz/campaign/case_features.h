// The features (campaign_stats.h) cases reach on a campaign's target, found
// in a short-lived child process: the supervisor that asks (to admit the
// cases a sync brings, campaign_sync.h) never runs the target itself
// (campaign.h), and a case that takes the target down takes only the child
// with it.
#ifndef ATOMFUZZ_FUZZ_CAMPAIGN_CASE_FEATURES_H_
#define ATOMFUZZ_FUZZ_CAMPAIGN_CASE_FEATURES_H_

#include <functional>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "isa/case_file.h"
#include "targets/target.h"

namespace atomfuzz::fuzz {

using TargetMaker =
    std::function<absl::StatusOr<std::unique_ptr<targets::Target>>()>;

struct CaseFeatures {
  bool ran = false;           // false: the budget ran out before it
  bool killed = false;        // it crashed or hung the target's process
  std::vector<int> features;  // none for a run that did not finish
};

// One entry per case, in order. The cases run in one child until
// `budget_seconds` are spent; if that child dies, each runs in a child of
// its own, so that only the culprit is lost (`killed`). `timeout_seconds`
// bounds one case. Errors: the target cannot be made.
absl::StatusOr<std::vector<CaseFeatures>> FeaturesInChild(
    const std::vector<isa::Case>& cases, const TargetMaker& make,
    double budget_seconds, double timeout_seconds);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_CAMPAIGN_CASE_FEATURES_H_
