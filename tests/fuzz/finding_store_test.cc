// The finding store: buckets appear whole, a store reopens where it was,
// smaller reproducers replace larger ones, and worker processes saving into
// one bucket at once end up with one bucket whose hits add up.
#include "fuzz/triage/finding_store.h"

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "fuzz/atomic_file.h"
#include "gtest/gtest.h"
#include "isa/case_file.h"
#include "tests/fuzz/corpus_files.h"
#include "tests/fuzz/tiny_case.h"

namespace atomfuzz::fuzz {
namespace {

namespace fs = std::filesystem;

std::string FreshDir() {
  const std::string dir = ::testing::TempDir() + "/store-" + UniqueSuffix();
  fs::remove_all(dir);
  return dir;
}

isa::Case Tiny() { return *isa::ParseCase(kTinyCase); }

NewFinding MakeFinding(const Signature& s) {
  NewFinding f;
  f.signature = s;
  f.original = *testutil::LoadCorpusCase("corpus/spec/e01-iadd-wrap.case");
  f.report = "report text\n";
  f.summary = "divergence: wrong-return at u0[0]: made up";
  f.target = "fast";
  f.inject = "xor-as-or";
  f.seed = 0xabcdef;
  f.found_at_unix = 1700000000;
  f.elapsed_s = 12.5;
  return f;
}

const Signature kSig{
    "imm_atomic_xor",        "u-raw", "in-bounds", "wrong-return",
    "fast+inject=xor-as-or", "",      ""};

TEST(FindingStore, SavesABucketWithEveryFile) {
  const std::string dir = FreshDir();
  absl::StatusOr<FindingStore> store = FindingStore::Open(dir);
  ASSERT_TRUE(store.ok()) << store.status();
  EXPECT_FALSE(store->Contains(kSig));
  NewFinding f = MakeFinding(kSig);
  f.reduced = Tiny();
  absl::StatusOr<SaveResult> saved = store->Save(f);
  ASSERT_TRUE(saved.ok()) << saved.status();
  EXPECT_TRUE(saved->created);
  EXPECT_EQ(saved->dir, dir + "/findings/" + kSig.Id());
  EXPECT_TRUE(store->Contains(kSig));

  absl::StatusOr<std::string> original =
      ReadWholeFile(saved->dir + "/original.case");
  ASSERT_TRUE(original.ok());
  absl::StatusOr<isa::Case> c = isa::ParseCase(*original);
  ASSERT_TRUE(c.ok()) << c.status();
  auto meta = [&](const std::string& key) {
    for (const auto& [k, v] : c->metadata) {
      if (k == key) return v;
    }
    return std::string("<missing>");
  };
  EXPECT_EQ(meta("seed"), "0xabcdef");
  EXPECT_EQ(meta("target"), "fast");
  EXPECT_EQ(meta("inject"), "xor-as-or");
  EXPECT_EQ(meta("bucket"), kSig.Id());
  EXPECT_EQ(meta("divergence"), f.summary);
  EXPECT_EQ(meta("found_at"), "1700000000");
  EXPECT_EQ(meta("found_at_elapsed"), "12.500");
  // reduced.case: the reduced case with the same provenance, so that it
  // replays on what found it.
  isa::Case tiny_saved = Tiny();
  tiny_saved.metadata = {{"target", "fast"},
                         {"inject", "xor-as-or"},
                         {"seed", "0xabcdef"},
                         {"bucket", kSig.Id()}};
  EXPECT_EQ(*ReadWholeFile(saved->dir + "/reduced.case"),
            isa::PrintCase(tiny_saved));
  EXPECT_EQ(*ReadWholeFile(saved->dir + "/report.txt"), "report text\n");

  absl::StatusOr<BucketInfo> b = store->ReadBucket(kSig.Id());
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(b->signature, kSig);
  EXPECT_EQ(b->hits, 1);
  EXPECT_EQ(b->first_seen_unix, 1700000000);
  EXPECT_DOUBLE_EQ(b->first_seen_elapsed, 12.5);
  EXPECT_EQ(b->summary, f.summary);
  EXPECT_EQ(b->reduced_size.instructions, 2);
  EXPECT_TRUE(fs::is_empty(dir + "/findings/.staging"));
}

TEST(FindingStore, ReopensAndCountsHitsOfEveryWriter) {
  const std::string dir = FreshDir();
  {
    absl::StatusOr<FindingStore> first = FindingStore::Open(dir);
    ASSERT_TRUE(first.ok());
    ASSERT_TRUE(first->Save(MakeFinding(kSig)).ok());
    ASSERT_TRUE(first->RecordHit(kSig).ok());
  }
  absl::StatusOr<FindingStore> resumed = FindingStore::Open(dir);
  ASSERT_TRUE(resumed.ok());
  EXPECT_TRUE(resumed->Contains(kSig));
  EXPECT_EQ(resumed->BucketIds(), std::vector<std::string>{kSig.Id()});
  absl::StatusOr<SaveResult> again = resumed->Save(MakeFinding(kSig));
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(again->created);
  EXPECT_EQ(resumed->ReadBucket(kSig.Id())->hits, 3);

  Signature other = kSig;
  other.divergence = "wrong-memory";
  EXPECT_TRUE(absl::IsNotFound(resumed->RecordHit(other)));
}

// A kill between an alias and its bucket leaves an alias to nothing: it
// names no bucket, so a resumed campaign saves the finding again instead
// of failing to count a hit (found by reliability.early_kill).
TEST(FindingStore, AnAliasToAMissingBucketNamesNothing) {
  const std::string dir = FreshDir();
  absl::StatusOr<FindingStore> store = FindingStore::Open(dir);
  ASSERT_TRUE(store.ok());
  Signature found = kSig;
  found.divergence = "wrong-memory";
  ASSERT_TRUE(store->SaveAlias(found, kSig).ok());
  EXPECT_EQ(store->AliasOf(found), std::nullopt);
  absl::StatusOr<FindingStore> resumed = FindingStore::Open(dir);
  ASSERT_TRUE(resumed.ok());
  EXPECT_EQ(resumed->AliasOf(found), std::nullopt);
  ASSERT_TRUE(resumed->Save(MakeFinding(kSig)).ok());
  EXPECT_EQ(resumed->AliasOf(found), kSig);
}

// A case counts once however often it hit: a campaign resumed after a
// kill runs again the cases after its last saved state, in a new writer
// (issue 21). Lines cut short by a kill are not counted; a count left by
// an older store is.
TEST(FindingStore, ACaseIndexHitsOnceAcrossWritersAndResumes) {
  const std::string dir = FreshDir();
  {
    absl::StatusOr<FindingStore> first = FindingStore::Open(dir);
    ASSERT_TRUE(first.ok());
    NewFinding f = MakeFinding(kSig);
    f.case_index = 7;
    ASSERT_TRUE(first->Save(f).ok());
    ASSERT_TRUE(first->RecordHit(kSig, 8).ok());
    ASSERT_TRUE(first->RecordHit(kSig, 9).ok());
  }
  absl::StatusOr<FindingStore> resumed = FindingStore::Open(dir);
  ASSERT_TRUE(resumed.ok());
  ASSERT_TRUE(resumed->RecordHit(kSig, 8).ok());       // run again: no new hit
  ASSERT_TRUE(resumed->RecordHit(kSig, 10).ok());      // a new case
  ASSERT_TRUE(resumed->RecordHit(kSig).ok());          // no index: counts
  EXPECT_EQ(resumed->ReadBucket(kSig.Id())->hits, 5);  // 7, 8, 9, 10, +
  const std::string hits = dir + "/findings/" + kSig.Id() + "/hits/";
  {
    std::ofstream cut(hits + "killed-writer");
    cut << "@11\n@1";  // the kill came in the middle of "@12\n"
    std::ofstream old(hits + "older-store");
    old << "4\n";
  }
  EXPECT_EQ(resumed->ReadBucket(kSig.Id())->hits, 10);  // + 11, + 4
}

// Another writer (a worker process, a resumed campaign) finds where a
// found signature's reduction landed; the alias is no bucket of its own.
TEST(FindingStore, AnAliasNamesItsBucketForEveryWriter) {
  const std::string dir = FreshDir();
  Signature found = kSig;
  found.opcode = "imm_atomic_cmp_exch";
  {
    absl::StatusOr<FindingStore> first = FindingStore::Open(dir);
    ASSERT_TRUE(first.ok());
    EXPECT_EQ(first->AliasOf(found), std::nullopt);
    ASSERT_TRUE(first->Save(MakeFinding(kSig)).ok());
    ASSERT_TRUE(first->SaveAlias(found, kSig).ok());
    EXPECT_EQ(first->AliasOf(found), kSig);
  }
  absl::StatusOr<FindingStore> other = FindingStore::Open(dir);
  ASSERT_TRUE(other.ok());
  EXPECT_FALSE(other->Contains(found));
  EXPECT_EQ(other->AliasOf(found), kSig);
  EXPECT_EQ(other->AliasOf(kSig), std::nullopt);
  EXPECT_EQ(other->BucketIds(), std::vector<std::string>{kSig.Id()});
}

TEST(FindingStore, SmallerReproducerReplacesTheSavedOne) {
  const std::string dir = FreshDir();
  absl::StatusOr<FindingStore> store = FindingStore::Open(dir);
  ASSERT_TRUE(store.ok());
  ASSERT_TRUE(store->Save(MakeFinding(kSig)).ok());  // unreduced: original
  const std::string reduced = dir + "/findings/" + kSig.Id() + "/reduced.case";
  EXPECT_GT(store->ReadBucket(kSig.Id())->reduced_size.instructions, 2);

  NewFinding smaller = MakeFinding(kSig);
  smaller.reduced = Tiny();
  smaller.report = "smaller\n";
  absl::StatusOr<SaveResult> r = store->Save(smaller);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->replaced_reduced);
  // The smaller case, with the provenance original.case has.
  auto saved_without_metadata = [&] {
    absl::StatusOr<isa::Case> c = isa::ParseCase(*ReadWholeFile(reduced));
    EXPECT_TRUE(c.ok()) << c.status();
    if (!c.ok()) return isa::Case{};
    EXPECT_TRUE(absl::StrContains(*ReadWholeFile(reduced),
                                  "\ntarget = fast\ninject = xor-as-or\n"));
    c->metadata.clear();
    return *c;
  };
  EXPECT_EQ(saved_without_metadata(), Tiny());
  EXPECT_EQ(*ReadWholeFile(r->dir + "/report.txt"), "smaller\n");

  r = store->Save(MakeFinding(kSig));  // larger again: kept out
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->replaced_reduced);
  EXPECT_EQ(saved_without_metadata(), Tiny());
  EXPECT_EQ(store->ReadBucket(kSig.Id())->hits, 3);
}

// Worker processes race to create one bucket and keep saving into it.
TEST(FindingStore, ConcurrentProcessesShareOneBucket) {
  constexpr int kWorkers = 4, kSavesEach = 5;
  const std::string dir = FreshDir();
  ASSERT_TRUE(FindingStore::Open(dir).ok());
  int go[2];
  ASSERT_EQ(pipe(go), 0);
  std::vector<pid_t> pids;
  for (int w = 0; w < kWorkers; ++w) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      close(go[1]);
      char byte;
      (void)!read(go[0], &byte, 1);  // returns 0 when the parent lets go
      absl::StatusOr<FindingStore> store = FindingStore::Open(dir);
      bool ok = store.ok();
      for (int i = 0; ok && i < kSavesEach; ++i) {
        NewFinding f = MakeFinding(kSig);
        if (i % 2 == 1) f.reduced = Tiny();
        ok = store->Save(f).ok();
      }
      _exit(ok ? 0 : 1);
    }
    pids.push_back(pid);
  }
  close(go[0]);
  close(go[1]);  // all start at once
  for (pid_t pid : pids) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  absl::StatusOr<FindingStore> store = FindingStore::Open(dir);
  ASSERT_TRUE(store.ok());
  ASSERT_EQ(store->BucketIds(), std::vector<std::string>{kSig.Id()});
  absl::StatusOr<BucketInfo> b = store->ReadBucket(kSig.Id());
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(b->hits, kWorkers * kSavesEach);
  EXPECT_EQ(b->reduced_size.instructions, 2);  // a worker offered Tiny
  for (const auto& e : fs::recursive_directory_iterator(dir + "/findings")) {
    const std::string path = e.path().string();
    EXPECT_FALSE(absl::StrContains(path, ".tmp.")) << path;
    if (absl::EndsWith(path, ".case")) {
      EXPECT_TRUE(isa::ParseCase(*ReadWholeFile(path)).ok()) << path;
    }
  }
  EXPECT_TRUE(fs::is_empty(dir + "/findings/.staging"));
  absl::StatusOr<std::vector<BucketInfo>> all = store->ReadAll();
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 1u);
}

}  // namespace
}  // namespace atomfuzz::fuzz
