// How a campaign's corpus grows the same way however its workers are timed,
// killed and resumed: case numbers fall into epochs (Epochs); a case
// mutates only what epochs two or more before its own kept; and what an
// epoch keeps is decided once it is whole, in index order, by the rule
// libFuzzer applies case by case: a case joins if it reaches a feature that
// no earlier case reached. The case at an index is therefore a function of
// the seed and the index alone, and so are the findings and hits of a
// campaign of N cases, whatever --jobs and however many kills.
//
// A worker offers a case as a candidate when it reaches a feature missing
// from the kept features and from its own earlier cases of the epoch (a
// superset of what the rule keeps); candidates wait as DIR/pending files
// until their epoch is whole.
#ifndef ATOMFUZZ_FUZZ_CAMPAIGN_CORPUS_EPOCHS_H_
#define ATOMFUZZ_FUZZ_CAMPAIGN_CORPUS_EPOCHS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace atomfuzz::fuzz {

// Cases per epoch: enough that workers rarely wait on each other, few
// enough that a slow target's campaign starts mutating within seconds.
// Fixed at a campaign's start and recorded (corpus.epochs).
inline constexpr uint64_t kEpochCases = 1024;          // fast and oracle: 50 ms
inline constexpr uint64_t kSlowTargetEpochCases = 64;  // a translator: ~3 s
uint64_t EpochCasesFor(absl::string_view target);

class Epochs {
 public:
  explicit Epochs(uint64_t cases = kEpochCases) : cases_(cases) {}
  uint64_t cases() const { return cases_; }
  uint64_t Of(uint64_t index) const { return index / cases_; }
  uint64_t First(uint64_t epoch) const { return epoch * cases_; }
  // The corpus case `index` may mutate: what epochs before Of(index) - 1
  // kept. The epoch of lag lets a worker run a whole epoch ahead of the
  // slowest before it waits.
  uint64_t VisibleBelow(uint64_t index) const {
    const uint64_t e = Of(index);
    return e >= 1 ? (e - 1) * cases_ : 0;
  }
  // Epochs that must be kept before case `index` runs.
  uint64_t NeededBy(uint64_t index) const {
    const uint64_t e = Of(index);
    return e >= 1 ? e - 1 : 0;
  }

 private:
  uint64_t cases_;
};

struct CorpusCandidate {
  uint64_t index = 0;
  std::vector<int> features;  // sorted
  std::string text;           // the case file
};

// The file name a kept case gets: its index, then its content's hash, so
// names sort in index order and never clash.
std::string KeptCaseName(uint64_t index, absl::string_view text);
// The index in a kept case's name; 0 for names of older campaigns (which
// every case may then mutate), nullopt-like false for other files.
bool IndexOfKeptName(absl::string_view name, uint64_t& index);

// DIR/pending, one file per candidate.
absl::Status WritePendingCandidate(const std::string& pending_dir,
                                   const CorpusCandidate& c);
// The candidates of `epoch`, in index order. Unreadable files are skipped
// (they appear whole, by rename; anything else is not ours).
std::vector<CorpusCandidate> ReadPendingCandidates(
    const std::string& pending_dir, const Epochs& epochs, uint64_t epoch);
// Removes the candidates of `epoch` (kept or not, they are decided).
void RemovePendingEpoch(const std::string& pending_dir, const Epochs& epochs,
                        uint64_t epoch);
// Removes candidates of cases at or past `index`: a resumed campaign runs
// them again.
void RemovePendingFrom(const std::string& pending_dir, uint64_t index);

// DIR/corpus.epochs: how many epochs are kept and the features they reach.
struct EpochRecord {
  uint64_t epoch_cases = kEpochCases;
  uint64_t finalized = 0;
  std::string features_hex;  // SeenFeaturesText, one line
};
std::string EpochRecordPath(const std::string& dir);  // DIR/corpus.epochs
std::string PrintEpochRecord(const EpochRecord& r);
// InvalidArgument "file:line: expected ..." on a malformed file.
absl::StatusOr<EpochRecord> ParseEpochRecord(absl::string_view text,
                                             absl::string_view file);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_CAMPAIGN_CORPUS_EPOCHS_H_
