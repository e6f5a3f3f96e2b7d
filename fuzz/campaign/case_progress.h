// Where a campaign's case numbering stands, shared by its processes: which
// index is next, which cases are done and how each ended. Workers take
// indices one at a time (whoever is free takes the next, so a worker busy
// reducing a finding holds nobody up) and mark each case in a ring of flag
// bytes; the supervisor folds the done prefix into campaign.state. The
// state therefore counts exactly the cases below its next_index, and a
// campaign killed and resumed runs the rest again without counting twice.
#ifndef ATOMFUZZ_FUZZ_CAMPAIGN_CASE_PROGRESS_H_
#define ATOMFUZZ_FUZZ_CAMPAIGN_CASE_PROGRESS_H_

#include <atomic>
#include <cstdint>

namespace atomfuzz::fuzz {

// How a case ended, one bit each in its flag byte.
enum CaseFlag : uint8_t {
  kCaseDone = 1 << 0,           // all of it, findings included
  kCaseCorpusSettled = 1 << 1,  // whether it joins the corpus is decided
  kCaseRejected = 1 << 2,
  kCaseUnknown = 1 << 3,
  kCaseDivergence = 1 << 4,
  kCaseError = 1 << 5,  // the target or the judge failed, not the case
  kCaseCrash = 1 << 6,  // its worker died on it, and a fresh one too
  kCaseTimeout = 1 << 7,
};

// Cases a worker may run past the oldest unfinished one (a worker reducing
// for reduce_seconds while the other runs on).
inline constexpr uint64_t kProgressRing = uint64_t{1} << 20;

struct CaseProgress {
  std::atomic<uint64_t> next{0};  // the next index to take
  std::atomic<uint64_t> end{0};   // the first index not to take; 0 = none
  // Every index below is done and folded; their ring bytes are free.
  std::atomic<uint64_t> folded{0};
  // Corpus epochs [0, finalized_epochs) are kept; each holds epoch_cases
  // cases (corpus_epochs.h), set before any worker starts.
  std::atomic<uint64_t> finalized_epochs{0};
  std::atomic<uint64_t> epoch_cases{1024};
  std::atomic<uint8_t> flags[kProgressRing] = {};

  std::atomic<uint8_t>& of(uint64_t index) {
    return flags[index % kProgressRing];
  }
  const std::atomic<uint8_t>& of(uint64_t index) const {
    return flags[index % kProgressRing];
  }
  // Settled for the corpus: folded, or marked.
  bool CorpusSettled(uint64_t index) const {
    return index < folded.load(std::memory_order_acquire) ||
           (of(index).load(std::memory_order_acquire) & kCaseCorpusSettled) !=
               0;
  }
};

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_CAMPAIGN_CASE_PROGRESS_H_
