// Findings across synced campaigns: a campaign publishes the buckets it hit
// itself; a peer's bucket is adopted once, its hits replaced (never added)
// at each import, its smaller reproducer kept; a peer's bad bucket is
// skipped with a warning; triage lists the union.
#include "fuzz/campaign/sync_findings.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "fuzz/atomic_file.h"
#include "fuzz/campaign/sync_identity.h"
#include "fuzz/confined_paths.h"
#include "fuzz/triage/triage.h"
#include "gtest/gtest.h"
#include "isa/case_file.h"
#include "tests/fuzz/corpus_files.h"
#include "tests/fuzz/tiny_case.h"

namespace atomfuzz::fuzz {
namespace {

namespace fs = std::filesystem;

const Signature kSig{
    "imm_atomic_xor",        "u-raw", "in-bounds", "wrong-return",
    "fast+inject=xor-as-or", "",      ""};
const Signature kOther{
    "imm_atomic_or",         "u-raw", "in-bounds", "wrong-return",
    "fast+inject=xor-as-or", "",      ""};

NewFinding Finding(const Signature& s, bool tiny, uint64_t index) {
  NewFinding f;
  f.signature = s;
  f.case_index = index;
  f.original = *testutil::LoadCorpusCase("corpus/spec/e01-iadd-wrap.case");
  if (tiny) f.reduced = *isa::ParseCase(kTinyCase);
  f.report = tiny ? "tiny report\n" : "big report\n";
  f.summary = "divergence: wrong-return at u0[0]: made up";
  f.target = "fast";
  return f;
}

// A sync directory with two campaigns' stores beside it.
class SyncFindings : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = ::testing::TempDir() + "/sync-findings-" + UniqueSuffix();
    sync_ = root_ + "/sync";
    fs::create_directories(sync_);
    ASSERT_TRUE(ConfineFilesUnder(sync_).ok());
  }
  FindingStore Store(const std::string& name) {
    absl::StatusOr<FindingStore> s = FindingStore::Open(root_ + "/" + name);
    EXPECT_TRUE(s.ok()) << s.status();
    return *std::move(s);
  }
  // Runs `f` with a log in memory; returns what was logged.
  template <typename F>
  std::string Logged(F f) {
    char* text = nullptr;
    size_t size = 0;
    std::FILE* log = open_memstream(&text, &size);
    f(log);
    std::fclose(log);
    std::string out(text, size);
    std::free(text);
    return out;
  }

  std::string root_, sync_;
  PublishedTexts published_;
};

TEST_F(SyncFindings, ImportingAgainCountsNothingTwice) {
  FindingStore peer = Store("peer");
  ASSERT_TRUE(peer.Save(Finding(kSig, /*tiny=*/true, 1)).ok());
  ASSERT_TRUE(peer.RecordHit(kSig, 2).ok());
  ASSERT_TRUE(PublishFindings(peer, sync_ + "/peer", "peer", published_).ok());
  const std::string published = sync_ + "/peer/findings/" + kSig.Id();
  EXPECT_EQ(*ReadWholeFile(published + "/hits/sync.peer"), "2\n");

  FindingStore mine = Store("mine");
  ASSERT_TRUE(mine.Save(Finding(kSig, /*tiny=*/false, 1)).ok());
  SyncWarnings warnings(stderr);
  AdoptedStamps stamps;
  for (int round = 0; round < 3; ++round) {
    if (round == 2) stamps.clear();  // as a resumed campaign starts
    absl::StatusOr<std::vector<AdoptedBucket>> created =
        ImportFindings(mine, sync_, {"peer"}, stamps, warnings);
    ASSERT_TRUE(created.ok()) << created.status();
    EXPECT_TRUE(created->empty());  // the bucket was its own already
    absl::StatusOr<BucketInfo> b = mine.ReadBucket(kSig.Id());
    ASSERT_TRUE(b.ok()) << b.status();
    EXPECT_EQ(b->hits_by, (HitsByCampaign{{"", 1}, {"peer", 2}}));
    EXPECT_EQ(b->hits, 3);
    // The peer's reproducer is smaller: it replaced this one's.
    EXPECT_EQ(b->reduced_size.instructions, 2);
  }
  EXPECT_EQ(
      *ReadWholeFile(root_ + "/mine/findings/" + kSig.Id() + "/report.txt"),
      "tiny report\n");

  // The peer hits it again: the import replaces its count.
  ASSERT_TRUE(peer.RecordHit(kSig, 3).ok());
  ASSERT_TRUE(PublishFindings(peer, sync_ + "/peer", "peer", published_).ok());
  ASSERT_TRUE(ImportFindings(mine, sync_, {"peer"}, stamps, warnings).ok());
  EXPECT_EQ(mine.ReadBucket(kSig.Id())->hits, 4);
}

TEST_F(SyncFindings, APeersBucketIsAdoptedOnceAndNotPublishedBack) {
  FindingStore peer = Store("peer");
  ASSERT_TRUE(peer.Save(Finding(kOther, /*tiny=*/false, 5)).ok());
  ASSERT_TRUE(PublishFindings(peer, sync_ + "/peer", "peer", published_).ok());
  FindingStore mine = Store("mine");
  SyncWarnings warnings(stderr);
  AdoptedStamps stamps;
  absl::StatusOr<std::vector<AdoptedBucket>> created =
      ImportFindings(mine, sync_, {"peer"}, stamps, warnings);
  ASSERT_TRUE(created.ok()) << created.status();
  ASSERT_EQ(created->size(), 1u);
  EXPECT_EQ((*created)[0].peer, "peer");
  EXPECT_EQ((*created)[0].bucket.signature, kOther);
  EXPECT_EQ(mine.BucketIds(), std::vector<std::string>{kOther.Id()});
  EXPECT_EQ(mine.ReadBucket(kOther.Id())->hits_by,
            (HitsByCampaign{{"peer", 1}}));
  // None of its own: nothing to publish.
  ASSERT_TRUE(PublishFindings(mine, sync_ + "/mine", "mine", published_).ok());
  EXPECT_FALSE(fs::exists(sync_ + "/mine/findings/" + kOther.Id()));
  // Adopted again (a resumed campaign): still one bucket, one count.
  stamps.clear();
  created = ImportFindings(mine, sync_, {"peer"}, stamps, warnings);
  ASSERT_TRUE(created.ok());
  EXPECT_TRUE(created->empty());
  EXPECT_EQ(mine.ReadBucket(kOther.Id())->hits, 1);
}

void Write(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << text;
}

TEST_F(SyncFindings, ABadPeerBucketIsSkippedWithAWarning) {
  const std::string evil = sync_ + "/evil/findings/";
  Write(evil + "not-a-bucket/bucket.txt", "key = x\n");
  // A key that signs to another id: it would make a second bucket of it.
  Write(evil + kSig.Id() + "/bucket.txt", "key = " + kOther.Key() + "\n");
  Write(evil + kSig.Id() + "/reduced.case", kTinyCase);
  Write(evil + kSig.Id() + "/original.case", kTinyCase);
  Write(evil + kSig.Id() + "/hits/sync.evil", "5\n");
  // The right key, twice, the second another: read as the other.
  Write(evil + kOther.Id() + "/bucket.txt",
        "key = " + kOther.Key() + "\nkey = " + kSig.Key() + "\n");
  Write(evil + kOther.Id() + "/hits/sync.evil", "5\n");
  // A reproducer that is no case.
  Signature third = kSig;
  third.address = "oob-skip";
  Write(evil + third.Id() + "/bucket.txt", "key = " + third.Key() + "\n");
  Write(evil + third.Id() + "/reduced.case", "[shader]\nfrob\n");
  Write(evil + third.Id() + "/original.case", kTinyCase);
  Write(evil + third.Id() + "/hits/sync.evil", "3\n");
  // A reproducer that is a link out of the sync directory.
  Signature fourth = kSig;
  fourth.address = "uav-poison";
  Write(evil + fourth.Id() + "/bucket.txt", "key = " + fourth.Key() + "\n");
  fs::create_symlink("/etc/passwd", evil + fourth.Id() + "/reduced.case");
  Write(evil + fourth.Id() + "/original.case", kTinyCase);
  Write(evil + fourth.Id() + "/hits/sync.evil", "3\n");
  // Hits that are no count: a publish in flight, skipped without a word.
  Signature fifth = kSig;
  fifth.address = "tgsm-poison";
  Write(evil + fifth.Id() + "/bucket.txt", "key = " + fifth.Key() + "\n");
  Write(evil + fifth.Id() + "/hits/sync.evil", "lots\n");

  FindingStore mine = Store("mine");
  AdoptedStamps stamps;
  const std::string log = Logged([&](std::FILE* f) {
    SyncWarnings warnings(f);
    for (int round = 0; round < 2; ++round) {
      absl::StatusOr<std::vector<AdoptedBucket>> created =
          ImportFindings(mine, sync_, {"evil"}, stamps, warnings);
      ASSERT_TRUE(created.ok()) << created.status();
      EXPECT_TRUE(created->empty());
    }
  });
  EXPECT_TRUE(mine.BucketIds().empty());
  for (const std::string& path :
       {evil + "not-a-bucket", evil + kSig.Id(), evil + kOther.Id(),
        evil + third.Id(), evil + fourth.Id()}) {
    EXPECT_TRUE(absl::StrContains(log, "skipped " + path)) << path << log;
  }
  EXPECT_FALSE(absl::StrContains(log, fifth.Id())) << log;
  // Each said once, however many rounds.
  EXPECT_EQ(log.find("skipped " + evil + kSig.Id()),
            log.rfind("skipped " + evil + kSig.Id()));
}

TEST_F(SyncFindings, TriageListsTheUnionWithEachCampaignsHitsOnce) {
  FindingStore peer = Store("peer");
  ASSERT_TRUE(peer.Save(Finding(kSig, true, 1)).ok());
  ASSERT_TRUE(peer.Save(Finding(kOther, true, 2)).ok());
  ASSERT_TRUE(PublishFindings(peer, sync_ + "/peer", "peer", published_).ok());
  FindingStore mine = Store("mine");
  ASSERT_TRUE(mine.Save(Finding(kSig, false, 1)).ok());
  ASSERT_TRUE(mine.RecordHit(kSig, 2).ok());
  ASSERT_TRUE(SetUpSyncIdentity(root_ + "/mine", sync_, "mine", "").ok());
  SyncWarnings warnings(stderr);
  AdoptedStamps stamps;
  ASSERT_TRUE(ImportFindings(mine, sync_, {"peer"}, stamps, warnings).ok());
  // The peer goes on after the last import: triage reads its publication.
  ASSERT_TRUE(peer.RecordHit(kSig, 3).ok());
  ASSERT_TRUE(PublishFindings(peer, sync_ + "/peer", "peer", published_).ok());

  absl::StatusOr<std::vector<BucketInfo>> rows =
      LoadSyncedTriage(root_ + "/mine", stderr);
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0].id, kSig.Id());
  EXPECT_EQ((*rows)[0].hits_by, (HitsByCampaign{{"mine", 2}, {"peer", 2}}));
  EXPECT_EQ((*rows)[0].hits, 4);
  EXPECT_EQ((*rows)[1].id, kOther.Id());
  EXPECT_EQ((*rows)[1].hits, 1);
  EXPECT_TRUE(absl::StrContains(TriageTable(*rows),
                                "hits by campaign: mine 2, peer 2"));
  // A campaign that never synced lists its own store.
  absl::StatusOr<std::vector<BucketInfo>> alone =
      LoadSyncedTriage(root_ + "/peer", stderr);
  ASSERT_TRUE(alone.ok());
  EXPECT_EQ(alone->size(), 2u);
}

}  // namespace
}  // namespace atomfuzz::fuzz
