// The one who decides, for each whole epoch of case numbers, which of its
// candidates join the corpus (corpus_epochs.h), and who folds finished
// cases into the counts campaign.state keeps (case_progress.h). The
// supervisor is the keeper of a campaign; a worker run in the caller's
// process (benchmarks, tests) keeps for itself.
#ifndef ATOMFUZZ_FUZZ_CAMPAIGN_EPOCH_KEEPER_H_
#define ATOMFUZZ_FUZZ_CAMPAIGN_EPOCH_KEEPER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "fuzz/campaign/campaign_stats.h"
#include "fuzz/campaign/corpus_epochs.h"

namespace atomfuzz::fuzz {

// Cases folded: exact counts of every index below CaseProgress::folded.
struct FoldedCounts {
  uint64_t cases = 0, divergences = 0, unknown = 0, crashes = 0;
  uint64_t timeouts = 0, rejected = 0, errors = 0;
};

// Where candidates wait for their epoch to be whole: DIR/pending files,
// which any process may write and the keeper reads, or the memory of the
// one process that both runs and keeps.
class CandidateQueue {
 public:
  // `dir`: the campaign's --out; "" keeps candidates in memory.
  explicit CandidateQueue(std::string dir);
  absl::Status Offer(CorpusCandidate c);
  // The candidates of `epoch` in index order; they leave the queue when
  // Settled(epoch) is called.
  std::vector<CorpusCandidate> Of(const Epochs& epochs, uint64_t epoch);
  void Settled(const Epochs& epochs, uint64_t epoch);
  // Candidates at or past `index` (a resumed campaign runs them again).
  void DropFrom(uint64_t index);

 private:
  std::string pending_dir_;  // "" in memory
  std::vector<CorpusCandidate> memory_;
};

class EpochKeeper {
 public:
  // `dir`: the campaign's --out (corpus/ and corpus.epochs are in it).
  EpochKeeper(std::string dir, SharedState& shared, CandidateQueue& queue);

  // Keeps every epoch that is whole and not kept yet: its candidates, in
  // index order, join DIR/corpus where they reach a feature not reached
  // before; then corpus.epochs records the epoch. The first failed write
  // is returned (nothing of that epoch is recorded as kept).
  absl::Status KeepWholeEpochs();
  // Records the kept epochs and the features seen now (the keeper's, and
  // those of cases a sync brought in, campaign_sync.h).
  absl::Status SaveRecord();
  // Folds the done cases from CaseProgress::folded on into `into`: those
  // of kept epochs, or (`at_end`, no worker runs) every done one.
  void Fold(FoldedCounts& into, bool at_end);

 private:
  absl::Status Keep(uint64_t epoch);
  absl::Status SaveRecord(uint64_t finalized);
  bool Whole(uint64_t epoch);
  Epochs epochs() const;

  std::string dir_;
  SharedState& shared_;
  CandidateQueue& queue_;
  uint64_t settled_up_to_ = 0;  // indices known settled, within the epoch
};

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_CAMPAIGN_EPOCH_KEEPER_H_
