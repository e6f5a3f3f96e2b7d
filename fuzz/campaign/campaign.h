// A fuzzing campaign: the supervisor forks `jobs` worker processes
// (campaign_worker.h), shares their counters through anonymous shared
// memory, prints a status line, writes DIR/stats.json and
// DIR/campaign.state every few seconds, and turns a worker that dies or
// stops making progress into a finding of its own kind (crash, timeout)
// before starting a replacement. Like libFuzzer's fork mode, the process
// that supervises never runs the target.
#ifndef ATOMFUZZ_FUZZ_CAMPAIGN_CAMPAIGN_H_
#define ATOMFUZZ_FUZZ_CAMPAIGN_CAMPAIGN_H_

#include <cstdio>
#include <functional>
#include <memory>

#include "absl/status/statusor.h"
#include "fuzz/campaign/campaign_options.h"
#include "fuzz/campaign/campaign_stats.h"
#include "targets/target.h"

namespace atomfuzz::fuzz {

struct CampaignResult {
  CampaignTotals totals;
  uint64_t seed = 0;
  uint64_t new_buckets = 0;    // buckets this session created, known aside
  uint64_t known_buckets = 0;  // buckets it created already written up
  // Something could not be written (reported when it happened); the
  // campaign stopped there, keeping what it had written.
  bool write_failed = false;
  // With --sync: what was shared (CampaignSync::Summary), else "".
  std::string sync_summary;
};

// Errors: InvalidArgument for bad options (unknown target, policy or
// injection; `out` holds another campaign without --resume, or no campaign
// with it; unreadable seeds), Internal when processes or shared memory
// cannot be had. `log` receives the status lines and the final summary.
absl::StatusOr<CampaignResult> RunCampaign(const CampaignOptions& options,
                                           std::FILE* log);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_CAMPAIGN_CAMPAIGN_H_
