// What one `atomfuzz fuzz` campaign does: a plain struct (libFuzzer's
// FuzzingOptions), filled from flags by cli/ and read by the engine, which
// never sees a flag.
#ifndef ATOMFUZZ_FUZZ_CAMPAIGN_CAMPAIGN_OPTIONS_H_
#define ATOMFUZZ_FUZZ_CAMPAIGN_CAMPAIGN_OPTIONS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "targets/fast/fast_target.h"
#include "targets/target.h"

namespace atomfuzz::fuzz {

struct CampaignOptions {
  std::string target = "fast";
  // The target's own flags (targets/target.h), passed on as they are.
  targets::TargetFlags target_flags;
  // The injected bug (--inject) among them: part of the target's label.
  std::string inject() const {
    return targets::FlagValue(target_flags, targets::fast::kInjectFlag);
  }
  std::string policy = "default";
  // The commit atomfuzz was built from, for every finding's [metadata]
  // ("" leaves it out).
  std::string tool_commit;
  // The versions of what the target drives (targets/target_versions.h),
  // recorded in every finding's [metadata]; the CLI looks them up.
  std::vector<std::pair<std::string, std::string>> versions;
  uint64_t seed = 0;   // 0: pick one (and print it)
  double seconds = 0;  // 0: no time limit
  uint64_t runs = 0;   // 0: no case limit
  int jobs = 1;        // worker processes
  std::string out = "atomfuzz-out";
  bool resume = false;             // continue the campaign in `out`
  std::vector<std::string> seeds;  // case files or directories to mutate
  // Findings already written up (fuzz/triage/known_findings.h), or "": a
  // new bucket with a known key is saved marked known, without reducing
  // it if its first signature is known, and does not count as new.
  std::string known;
  // A case that runs longer than this is a hang of its own kind.
  double timeout_seconds = 10;
  // Reduction of a new bucket's first finding; 0 skips it.
  double reduce_seconds = 20;
  // Share (per mille) of cases mutated from the corpus rather than
  // generated, once the corpus has something.
  uint32_t mutate_per_mille = 300;
  double status_every_seconds = 1;
  double stats_every_seconds = 5;
  bool quiet = false;  // no status lines (final summary only)
  // A directory shared with other campaigns (campaign_sync.h), or "": what
  // this one finds and keeps is published there under `sync_name` (""
  // picks one, DefaultSyncName, recorded for --resume), and what the
  // others published is imported every `sync_every_seconds`.
  std::string sync_dir;
  std::string sync_name;
  double sync_every_seconds = 5;
  // Embedders and tests may bring their own executor (the CLI never does):
  // called once in each worker process instead of the target registry.
  std::function<absl::StatusOr<std::unique_ptr<targets::Target>>()> make_target;
};

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_CAMPAIGN_CAMPAIGN_OPTIONS_H_
