#include "fuzz/campaign/corpus_merge.h"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <system_error>
#include <utility>

#include "absl/strings/str_cat.h"
#include "fuzz/campaign/campaign_corpus.h"
#include "fuzz/campaign/campaign_stats.h"
#include "fuzz/differential.h"
#include "fuzz/triage/case_size.h"

namespace atomfuzz::fuzz {

absl::StatusOr<MergeResult> MergeCorpus(const std::vector<std::string>& inputs,
                                        const std::string& out_dir,
                                        targets::Target& target) {
  CampaignCorpus in("");
  if (absl::Status s = in.AddSeeds(inputs); !s.ok()) return s;
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) {
    return absl::InvalidArgumentError(
        absl::StrCat(out_dir, ": cannot create it: ", ec.message()));
  }
  CampaignCorpus out(out_dir);
  out.Reload();

  MergeResult result;
  result.existing = out.size();
  result.inputs = in.size();
  // CountCoverage also counts the matrix; one room for all runs.
  auto counters = std::make_unique<WorkerCounters>();
  std::vector<bool> seen(kFeatureCount, false);
  std::vector<int> features;
  RunOneOptions run;
  run.judge = false;  // features come from the run alone
  // Whether `c` reaches a feature not seen yet (and marks what it reaches).
  auto reaches_new = [&](const isa::Case& c) {
    RunResult r = RunOne(c, target, run);
    if (!r.outcome.has_value()) return false;
    CountCoverage(c, *r.outcome, *counters, features);
    bool fresh = false;
    for (int f : features) {
      if (!seen[f]) fresh = true;
      seen[f] = true;
    }
    return fresh;
  };
  for (size_t i = 0; i < out.size(); ++i) (void)reaches_new(out.at(i));

  std::vector<size_t> order(in.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::vector<CaseSize> sizes(in.size());
  for (size_t i = 0; i < in.size(); ++i) sizes[i] = SizeOf(in.at(i));
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (sizes[a] < sizes[b]) return true;
    if (sizes[b] < sizes[a]) return false;
    return in.name(a) < in.name(b);
  });
  for (size_t i : order) {
    if (!reaches_new(in.at(i))) continue;
    const size_t before = out.size();
    absl::StatusOr<std::string> saved = out.Save(in.at(i));
    if (!saved.ok()) return saved.status();
    result.added += out.size() > before;  // the same text is saved once
  }
  result.features =
      static_cast<size_t>(std::count(seen.begin(), seen.end(), true));
  return result;
}

}  // namespace atomfuzz::fuzz
