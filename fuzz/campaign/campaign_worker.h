// One worker of a campaign: builds cases, runs them on the target, brings
// the outcomes to the oracle's judge, keeps cases that reach new features,
// and turns divergences into findings (signature, reduction, report, store).
// It runs in its own process under the supervisor (campaign.h), or in the
// caller's process (benchmarks, tests) with jobs = 1.
#ifndef ATOMFUZZ_FUZZ_CAMPAIGN_CAMPAIGN_WORKER_H_
#define ATOMFUZZ_FUZZ_CAMPAIGN_CAMPAIGN_WORKER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "fuzz/campaign/campaign_corpus.h"
#include "fuzz/campaign/campaign_options.h"
#include "fuzz/campaign/campaign_stats.h"
#include "fuzz/generate/policy.h"
#include "fuzz/runner.h"
#include "fuzz/triage/known_findings.h"
#include "oracle/judge.h"

namespace atomfuzz::fuzz {

// What every worker of a campaign shares.
struct CampaignSetup {
  CampaignOptions options;
  Policy policy;
  // The seed cases, read once before the workers start; each worker (and
  // the supervisor, to rebuild a lost case) starts from a copy and adds what
  // the campaign kept in DIR/corpus.
  CampaignCorpus corpus{""};
  KnownFindings known;        // options.known, read once
  uint64_t seed = 0;          // the campaign's (never 0 here)
  absl::Time started;         // this session's start
  double elapsed_before = 0;  // seconds of earlier sessions (resume)
  RunOptions Run() const;     // the target as the campaign runs it
  oracle::JudgeOptions JudgeOptions() const;  // the judge as it runs it
};

// A worker takes the next free case index until the numbering's end, the
// deadline, or shared.stop. Under a supervisor (campaign.h) the shared
// progress is set up and the epochs are kept by it; alone in the caller's
// process (benchmarks, tests), the worker starts the numbering at
// `first_index`, runs `quota` cases (0: no limit) and keeps for itself.
struct WorkerPlan {
  bool supervised = false;
  uint64_t first_index = 0;
  uint64_t quota = 0;
  absl::Time deadline = absl::InfiniteFuture();
  // If set, receives the parent (a corpus name; empty for a generated case)
  // of every case run, in order: with the seed and index, BuildCase
  // rebuilds the very cases (the benchmark's oracle-alone run).
  std::vector<std::string>* parents = nullptr;
};

// Errors: the target or the output directory could not be set up.
absl::Status RunWorker(const CampaignSetup& setup, const WorkerPlan& plan,
                       WorkerCounters& counters, SharedState& shared);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_CAMPAIGN_CAMPAIGN_WORKER_H_
