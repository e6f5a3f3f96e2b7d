// The counters a campaign keeps: each worker process owns one WorkerCounters
// in memory shared with the supervisor (so a crashed worker's counts
// survive it), and the supervisor sums them into CampaignTotals for the
// status line, stats.json and the final coverage matrix.
#ifndef ATOMFUZZ_FUZZ_CAMPAIGN_CAMPAIGN_STATS_H_
#define ATOMFUZZ_FUZZ_CAMPAIGN_CAMPAIGN_STATS_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <string>

#include "fuzz/campaign/case_progress.h"
#include "fuzz/campaign/lane_states.h"
#include "fuzz/triage/finding_store.h"
#include "isa/case_file.h"
#include "isa/coverage.h"
#include "isa/outcome.h"

namespace atomfuzz::fuzz {

// The 21 atomic opcodes are contiguous in isa::Op (atomic_and ..
// imm_atomic_umin), so they index the matrix directly.
inline constexpr int kAtomicOpCount =
    static_cast<int>(isa::Op::kImmAtomicUMin) -
    static_cast<int>(isa::Op::kAtomicAnd) + 1;
static_assert(kAtomicOpCount == 21);

// How many atomics of the case touched the same word: 1, 2, 3-4, 5-8, 9+.
inline constexpr int kAliasBuckets = 5;
// Features of compute cases: opcode x memory kind x address class x alias
// bucket. Numbered as before the pixel stage, so that a campaign's saved
// features (SeenFeaturesText) of an older build still load.
inline constexpr int kComputeFeatureCount =
    kAtomicOpCount * isa::kTargetKindCount * isa::kAddressClassCount *
    kAliasBuckets;
// Pixel cases' follow, the same cells once per state of the atomic's quad
// (lane_states.h): the stage is a dimension, and the lane state one within
// the pixel stage.
inline constexpr int kFeatureCount =
    kComputeFeatureCount * (1 + kLaneStateCount);

// Opcode x memory kind x address class: what the trace of a run exercised.
using CoverageCounts =
    std::array<std::array<std::array<uint64_t, isa::kAddressClassCount>,
                          isa::kTargetKindCount>,
               kAtomicOpCount>;

// Phases a worker reports, so a hang names what hung.
enum class WorkerPhase : uint32_t { kIdle, kTarget, kJudge, kReduce };

struct WorkerCounters {
  std::atomic<uint64_t> cases{0};
  std::atomic<uint64_t> divergences{0};
  std::atomic<uint64_t> unknown{0};
  std::atomic<uint64_t> rejected{0};  // the target refused a valid case
  // The target could not run, or the judge failed: not the case's fault
  // (fuzz/differential.h, RunKind).
  std::atomic<uint64_t> errors{0};
  // Generalisation of new signatures (fuzz/triage/generalise.h): how many,
  // their runs of the target, their time.
  std::atomic<uint64_t> generalised{0};
  std::atomic<uint64_t> generalise_runs{0};
  std::atomic<uint64_t> generalise_us{0};
  std::atomic<uint64_t> heartbeat{0};  // bumps at every phase change
  // The index this worker takes or runs (case_progress.h): set before it
  // tries to take it, so a dead worker's case is known.
  std::atomic<uint64_t> current_index{0};
  std::atomic<uint32_t> phase{0};
  std::atomic<uint32_t> finished{0};  // the worker ran out of work cleanly
  // Its current case is settled for the corpus (case_progress.h).
  std::atomic<uint32_t> corpus_settled{0};
  // The corpus file the current case was mutated from ("" = generated).
  char current_parent[256] = {};
  std::atomic<uint64_t> coverage[kAtomicOpCount][isa::kTargetKindCount]
                                [isa::kAddressClassCount] = {};
};

// Shared by all workers: the features the kept corpus reaches, where the
// numbering stands, and the stop request. About 1 MiB: allocate it.
struct SharedState {
  std::atomic<uint32_t> stop{0};
  // A finding, the corpus, the stats or the state could not be written (a
  // full disk, a read-only directory): the campaign stops and says so.
  std::atomic<uint32_t> write_failed{0};
  // Features of the epochs kept so far (corpus_epochs.h) and of the cases
  // a sync kept (campaign_sync.h); only the keeper's process writes them.
  std::atomic<uint8_t> seen[kFeatureCount] = {};
  // Cases kept: before this session (the supervisor counts them), then by
  // the keeper and the sync.
  std::atomic<uint64_t> corpus_kept{0};
  CaseProgress progress;
};

struct CampaignTotals {
  uint64_t cases = 0, divergences = 0, buckets = 0, unknown = 0;
  uint64_t crashes = 0, timeouts = 0, rejected = 0, corpus = 0;
  uint64_t errors = 0;  // the target or the judge failed, not the case
  // This session's generalisations: signatures, runs, seconds.
  uint64_t generalised = 0, generalise_runs = 0;
  double generalise_seconds = 0;
  double elapsed_seconds = 0;
  double cases_per_second = 0;  // of this session (not the resumed part)
  // Workers reducing a new bucket's finding now: their case counts stand
  // still meanwhile, which the status line says instead of looking stuck.
  int reducing = 0;
  CoverageCounts coverage = {};
};

// The features seen so far as text (one hex digit per four features), so
// that a resumed campaign starts knowing them: without it every resumed
// session kept again the cases that first reach each feature.
std::string SeenFeaturesText(const SharedState& shared);
// Marks the features `text` lists as seen; InvalidArgument naming `path`
// for text SeenFeaturesText did not write. Text of a build before the
// pixel stage (compute features only) loads too.
absl::Status LoadSeenFeatures(absl::string_view text, const std::string& path,
                              SharedState& shared);

// Adds the trace's atomics to `counters` and returns the features of the
// run (feature ids < kFeatureCount; a pixel case's past
// kComputeFeatureCount) into `features`. A run that did not
// finish adds nothing: its trace stops wherever a budget ran out, and an
// endless loop of atomics would be counted (and sorted) by the hundred
// thousand, then kept as a parent that breeds more endless mutants.
void CountCoverage(const isa::Case& c, const isa::Outcome& outcome,
                   WorkerCounters& counters, std::vector<int>& features);

// Reports a failed write at once, the first one of a campaign on `log`,
// and stops the campaign (SharedState::write_failed): a campaign that cannot
// save what it finds must not run on as if it could. Returns `s.ok()`.
bool WriteSucceeded(SharedState& shared, std::FILE* log, absl::string_view what,
                    const absl::Status& s);

// "#1234 cases: 1234 (20.3k/s) div: 2 buckets: 1 unknown: 0.12% ...", and
// " reducing: N" while workers reduce.
std::string StatusLine(const CampaignTotals& t);
// The event line of a bucket seen for the first time: "NEW bucket ID
// (divergence, opcode, resource, address) at 12s: SUMMARY...", in 100
// columns.
std::string NewBucketLine(const BucketInfo& b);
// The event line of a bucket a sync brought from campaign `peer`: "SYNC
// bucket ID (divergence, opcode, resource, address) from PEER: SUMMARY...",
// in 100 columns.
std::string SyncedBucketLine(const BucketInfo& b, const std::string& peer);
// Rows: atomics; columns: memory kinds; a cell lists the address classes
// reached (I in bounds, S skipped out of bounds, P uav poison, T tgsm
// poison, U undefined address), '.' for none, '-' where illegal.
std::string RenderCoverage(const CoverageCounts& counts);
// stats.json: the totals, the campaign's settings and the matrix.
std::string StatsJson(const CampaignTotals& t, const std::string& target,
                      const std::string& policy, uint64_t seed, int jobs);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_CAMPAIGN_CAMPAIGN_STATS_H_
