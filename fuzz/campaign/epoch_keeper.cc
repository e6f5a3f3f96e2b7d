#include "fuzz/campaign/epoch_keeper.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "fuzz/atomic_file.h"

namespace atomfuzz::fuzz {

CandidateQueue::CandidateQueue(std::string dir)
    : pending_dir_(dir.empty() ? "" : dir + "/pending") {}

absl::Status CandidateQueue::Offer(CorpusCandidate c) {
  if (pending_dir_.empty()) {
    memory_.push_back(std::move(c));
    return absl::OkStatus();
  }
  return WritePendingCandidate(pending_dir_, c);
}

std::vector<CorpusCandidate> CandidateQueue::Of(const Epochs& epochs,
                                                uint64_t epoch) {
  if (!pending_dir_.empty())
    return ReadPendingCandidates(pending_dir_, epochs, epoch);
  std::vector<CorpusCandidate> out;
  for (const CorpusCandidate& c : memory_) {
    if (epochs.Of(c.index) == epoch) out.push_back(c);
  }
  std::sort(out.begin(), out.end(),
            [](const CorpusCandidate& a, const CorpusCandidate& b) {
              return a.index < b.index;
            });
  return out;
}

void CandidateQueue::Settled(const Epochs& epochs, uint64_t epoch) {
  if (!pending_dir_.empty())
    return RemovePendingEpoch(pending_dir_, epochs, epoch);
  std::erase_if(memory_, [&](const CorpusCandidate& c) {
    return epochs.Of(c.index) <= epoch;
  });
}

void CandidateQueue::DropFrom(uint64_t index) {
  if (!pending_dir_.empty()) return RemovePendingFrom(pending_dir_, index);
  std::erase_if(memory_,
                [index](const CorpusCandidate& c) { return c.index >= index; });
}

EpochKeeper::EpochKeeper(std::string dir, SharedState& shared,
                         CandidateQueue& queue)
    : dir_(std::move(dir)), shared_(shared), queue_(queue) {}

Epochs EpochKeeper::epochs() const {
  return Epochs(shared_.progress.epoch_cases.load());
}

bool EpochKeeper::Whole(uint64_t epoch) {
  const Epochs e = epochs();
  const uint64_t first = e.First(epoch), last = e.First(epoch + 1);
  settled_up_to_ = std::max(settled_up_to_, first);
  while (settled_up_to_ < last &&
         shared_.progress.CorpusSettled(settled_up_to_)) {
    ++settled_up_to_;
  }
  return settled_up_to_ == last;
}

absl::Status EpochKeeper::KeepWholeEpochs() {
  for (;;) {
    const uint64_t epoch = shared_.progress.finalized_epochs.load();
    if (!Whole(epoch)) return absl::OkStatus();
    if (absl::Status s = Keep(epoch); !s.ok()) return s;
  }
}

absl::Status EpochKeeper::Keep(uint64_t epoch) {
  uint64_t kept = 0;
  for (const CorpusCandidate& c : queue_.Of(epochs(), epoch)) {
    // In index order, against what earlier cases reached: libFuzzer's rule.
    bool fresh = false;
    for (int f : c.features) {
      if (f < 0 || f >= kFeatureCount) continue;
      fresh |= shared_.seen[f].load(std::memory_order_relaxed) == 0;
    }
    if (!fresh) continue;
    if (absl::Status s = WriteFileAtomically(
            absl::StrCat(dir_, "/corpus/", KeptCaseName(c.index, c.text)),
            c.text, false);
        !s.ok()) {
      return s;
    }
    for (int f : c.features) {
      if (f >= 0 && f < kFeatureCount)
        shared_.seen[f].store(1, std::memory_order_relaxed);
    }
    ++kept;
  }
  if (absl::Status s = SaveRecord(epoch + 1); !s.ok()) return s;
  queue_.Settled(epochs(), epoch);
  shared_.corpus_kept.fetch_add(kept);
  shared_.progress.finalized_epochs.store(epoch + 1, std::memory_order_release);
  return absl::OkStatus();
}

absl::Status EpochKeeper::SaveRecord(uint64_t finalized) {
  EpochRecord record;
  record.epoch_cases = epochs().cases();
  record.finalized = finalized;
  record.features_hex = std::string(
      absl::StripTrailingAsciiWhitespace(SeenFeaturesText(shared_)));
  return WriteFileAtomically(EpochRecordPath(dir_), PrintEpochRecord(record),
                             false);
}

absl::Status EpochKeeper::SaveRecord() {
  return SaveRecord(shared_.progress.finalized_epochs.load());
}

void EpochKeeper::Fold(FoldedCounts& into, bool at_end) {
  CaseProgress& p = shared_.progress;
  uint64_t j = p.folded.load();
  const uint64_t limit =
      at_end
          ? p.next.load()
          : epochs().First(p.finalized_epochs.load(std::memory_order_acquire));
  while (j < limit) {
    const uint8_t f = p.of(j).load(std::memory_order_acquire);
    if ((f & kCaseDone) == 0) break;
    ++into.cases;
    into.divergences += (f & kCaseDivergence) != 0;
    into.unknown += (f & kCaseUnknown) != 0;
    into.rejected += (f & kCaseRejected) != 0;
    into.crashes += (f & kCaseCrash) != 0;
    into.timeouts += (f & kCaseTimeout) != 0;
    into.errors += (f & kCaseError) != 0;
    p.of(j).store(0, std::memory_order_relaxed);
    ++j;
  }
  p.folded.store(j, std::memory_order_release);
}

}  // namespace atomfuzz::fuzz
