// The epoch rule (fuzz/campaign/corpus_epochs.h, epoch_keeper.h): names,
// the record, and that what an epoch keeps does not depend on which worker
// offered what, or when.
#include "fuzz/campaign/corpus_epochs.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "fuzz/campaign/campaign_stats.h"
#include "fuzz/campaign/epoch_keeper.h"
#include "gtest/gtest.h"

namespace atomfuzz::fuzz {
namespace {

std::string FreshDir(const std::string& name) {
  const std::string dir =
      (std::filesystem::temp_directory_path() / ("atomfuzz-epochs-" + name))
          .string();
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir + "/corpus");
  std::filesystem::create_directories(dir + "/pending");
  return dir;
}

TEST(CorpusEpochs, VisibilityLagsOneEpoch) {
  const Epochs e;
  EXPECT_EQ(e.VisibleBelow(0), 0u);
  EXPECT_EQ(e.VisibleBelow(kEpochCases + 5), 0u);
  EXPECT_EQ(e.VisibleBelow(2 * kEpochCases), kEpochCases);
  EXPECT_EQ(e.NeededBy(2 * kEpochCases + 3), 1u);
  EXPECT_EQ(e.NeededBy(kEpochCases - 1), 0u);
  // A translator's campaign mutates from its 128th case on.
  const Epochs slow(EpochCasesFor("vulkan"));
  EXPECT_EQ(slow.VisibleBelow(2 * kSlowTargetEpochCases),
            kSlowTargetEpochCases);
  EXPECT_EQ(EpochCasesFor("fast"), kEpochCases);
}

TEST(CorpusEpochs, KeptNamesSortByIndexAndOldNamesAreIndexZero) {
  const std::string a = KeptCaseName(9, "x"), b = KeptCaseName(10, "a");
  EXPECT_LT(a, b);
  uint64_t index = 1;
  ASSERT_TRUE(IndexOfKeptName(b, index));
  EXPECT_EQ(index, 10u);
  ASSERT_TRUE(IndexOfKeptName("00ff00ff00ff00ff.case", index));
  EXPECT_EQ(index, 0u);
  EXPECT_FALSE(IndexOfKeptName("notes.txt", index));
}

TEST(CorpusEpochs, RecordRoundTripsAndNamesItsLine) {
  EpochRecord r;
  r.epoch_cases = 64;
  r.finalized = 7;
  r.features_hex = "00f1";
  absl::StatusOr<EpochRecord> back = ParseEpochRecord(PrintEpochRecord(r), "f");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->epoch_cases, 64u);
  EXPECT_EQ(back->finalized, 7u);
  EXPECT_EQ(back->features_hex, "00f1");
  absl::StatusOr<EpochRecord> bad =
      ParseEpochRecord("epoch_cases 0\nfinalized 1\nfeatures 0\n", "DIR/e");
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(absl::StrContains(bad.status().message(), "DIR/e:1: expected"))
      << bad.status();
}

TEST(CorpusEpochs, PendingCandidatesRoundTripInIndexOrder) {
  const std::string dir = FreshDir("pending") + "/pending";
  ASSERT_TRUE(WritePendingCandidate(dir, {5, {3, 1}, "b\n"}).ok());
  ASSERT_TRUE(WritePendingCandidate(dir, {2, {}, "a\n"}).ok());
  ASSERT_TRUE(WritePendingCandidate(dir, {kEpochCases, {4}, "c\n"}).ok());
  const Epochs epochs;
  std::vector<CorpusCandidate> c = ReadPendingCandidates(dir, epochs, 0);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].index, 2u);
  EXPECT_EQ(c[0].text, "a\n");
  EXPECT_EQ(c[1].features, (std::vector<int>{3, 1}));
  RemovePendingFrom(dir, 3);
  EXPECT_EQ(ReadPendingCandidates(dir, epochs, 0).size(), 1u);
  EXPECT_TRUE(ReadPendingCandidates(dir, epochs, 1).empty());
}

// Two workers offer out of order and more than the rule keeps; the keeper
// keeps, in index order, only cases with a feature no earlier case had.
TEST(EpochKeeper, KeepsByIndexOrderWhateverTheOfferOrder) {
  for (const bool on_disk : {false, true}) {
    const std::string dir = FreshDir(on_disk ? "keep-disk" : "keep-memory");
    auto shared = std::make_unique<SharedState>();
    CandidateQueue queue(on_disk ? dir : "");
    EpochKeeper keeper(dir, *shared, queue);
    ASSERT_TRUE(queue.Offer({7, {1, 2}, "seven\n"}).ok());
    ASSERT_TRUE(queue.Offer({3, {2}, "three\n"}).ok());
    ASSERT_TRUE(queue.Offer({9, {1}, "nine\n"}).ok());
    ASSERT_TRUE(queue.Offer({4, {2}, "four\n"}).ok());
    // Not whole yet: nothing kept.
    for (uint64_t i = 0; i + 1 < kEpochCases; ++i)
      shared->progress.of(i).fetch_or(kCaseCorpusSettled | kCaseDone);
    ASSERT_TRUE(keeper.KeepWholeEpochs().ok());
    EXPECT_EQ(shared->progress.finalized_epochs.load(), 0u);
    shared->progress.of(kEpochCases - 1).fetch_or(kCaseCorpusSettled);
    ASSERT_TRUE(keeper.KeepWholeEpochs().ok());
    EXPECT_EQ(shared->progress.finalized_epochs.load(), 1u);
    EXPECT_EQ(shared->corpus_kept.load(), 2u);  // 3 (feature 2), 7 (1)
    std::vector<std::string> kept;
    for (const auto& e : std::filesystem::directory_iterator(dir + "/corpus"))
      kept.push_back(e.path().filename().string());
    std::sort(kept.begin(), kept.end());
    ASSERT_EQ(kept.size(), 2u);
    EXPECT_EQ(kept[0], KeptCaseName(3, "three\n"));
    EXPECT_EQ(kept[1], KeptCaseName(7, "seven\n"));
    EXPECT_TRUE(ReadPendingCandidates(dir + "/pending", Epochs(), 0).empty());
    // Counts fold up to the first case not done.
    shared->progress.next.store(kEpochCases);
    FoldedCounts folded;
    keeper.Fold(folded, false);
    EXPECT_EQ(folded.cases, kEpochCases - 1);
    EXPECT_EQ(shared->progress.folded.load(), kEpochCases - 1);
  }
}

}  // namespace
}  // namespace atomfuzz::fuzz
