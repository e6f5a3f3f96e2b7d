// Triage of a store built here: rows in a stable order (most hit first,
// then first seen), a table for people and JSON for tools.
#include "fuzz/triage/triage.h"

#include <filesystem>
#include <string>

#include "absl/strings/match.h"
#include "fuzz/atomic_file.h"
#include "fuzz/triage/known_findings.h"
#include "gtest/gtest.h"
#include "tests/fuzz/corpus_files.h"

namespace atomfuzz::fuzz {
namespace {

NewFinding Finding(const Signature& s, int64_t found_at) {
  NewFinding f;
  f.signature = s;
  f.original = *testutil::LoadCorpusCase("corpus/spec/e01-iadd-wrap.case");
  f.summary = "divergence: " + s.divergence;
  f.found_at_unix = found_at;
  f.elapsed_s = static_cast<double>(found_at - 1700000000);
  return f;
}

class TriageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "/triage-" + UniqueSuffix();
    absl::StatusOr<FindingStore> store = FindingStore::Open(dir_);
    ASSERT_TRUE(store.ok());
    // a: 1 hit; b: 3 hits; c: 1 hit, seen before a.
    ASSERT_TRUE(store->Save(Finding(a_, 1700000100)).ok());
    ASSERT_TRUE(store->Save(Finding(b_, 1700000200)).ok());
    ASSERT_TRUE(store->RecordHit(b_).ok());
    ASSERT_TRUE(store->RecordHit(b_).ok());
    ASSERT_TRUE(store->Save(Finding(c_, 1700000050)).ok());
  }
  std::string dir_;
  const Signature a_{"atomic_xor",
                     "u-raw",
                     "in-bounds",
                     "wrong-return",
                     "fast+inject=xor-as-or",
                     "",
                     ""};
  const Signature b_{
      "imm_atomic_iadd", "g-raw", "in-bounds", "wrong-return", "fast", "", ""};
  const Signature c_{"?", "?", "?", "crash", "fast", "", ""};
};

TEST_F(TriageTest, OrdersByHitsThenFirstSeen) {
  absl::StatusOr<std::vector<BucketInfo>> rows = LoadTriage(dir_);
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->size(), 3u);
  EXPECT_EQ((*rows)[0].id, b_.Id());
  EXPECT_EQ((*rows)[0].hits, 3);
  EXPECT_EQ((*rows)[1].id, c_.Id());
  EXPECT_EQ((*rows)[2].id, a_.Id());
  std::vector<BucketInfo> again = *rows;
  SortForTriage(again);
  for (size_t i = 0; i < again.size(); ++i)
    EXPECT_EQ(again[i].id, (*rows)[i].id);
}

TEST_F(TriageTest, TableHasOneRowPerBucketAndATotal) {
  const std::string table = TriageTable(*LoadTriage(dir_));
  EXPECT_TRUE(absl::StrContains(table, "hits")) << table;
  EXPECT_TRUE(absl::StrContains(table, b_.Id())) << table;
  EXPECT_TRUE(absl::StrContains(table, "2023-11-14 22:16:40"))
      << table;  // b's first sight
  EXPECT_TRUE(absl::StrContains(table, "fast+inject=xor-as-or")) << table;
  EXPECT_TRUE(
      absl::StrContains(table, "/reduced.case (18 instructions, 16 threads)"))
      << table;
  EXPECT_TRUE(absl::StrContains(table, "3 buckets (3 new, 0 known), 5 hits"))
      << table;
  EXPECT_LT(table.find(b_.Id()), table.find(a_.Id()));
}

TEST_F(TriageTest, JsonNamesEveryField) {
  const std::string json = TriageJson(*LoadTriage(dir_));
  for (const char* field :
       {"\"id\"", "\"key\"", "\"opcode\"", "\"resource\"", "\"address\"",
        "\"divergence\"", "\"target\"", "\"hits\": 3", "\"first_seen\"",
        "\"reproducer\"", "\"instructions\": 18", "\"threads\": 16"}) {
    EXPECT_TRUE(absl::StrContains(json, field)) << field << "\n" << json;
  }
  EXPECT_TRUE(absl::StrContains(json, "\"hits\": 5}")) << json;
  EXPECT_TRUE(absl::StrContains(json, "\"key\": \"?|?|?|crash|fast\"")) << json;
}

TEST(Triage, MissingDirectoryIsNotFound) {
  EXPECT_TRUE(absl::IsNotFound(
      LoadTriage(::testing::TempDir() + "/no-such-campaign").status()));
}

TEST(Triage, EmptyStoreHasNoRows) {
  const std::string dir =
      ::testing::TempDir() + "/triage-empty-" + UniqueSuffix();
  ASSERT_TRUE(FindingStore::Open(dir).ok());
  absl::StatusOr<std::vector<BucketInfo>> rows = LoadTriage(dir);
  ASSERT_TRUE(rows.ok());
  EXPECT_TRUE(rows->empty());
  EXPECT_TRUE(absl::StrContains(TriageTable(*rows),
                                "0 buckets (0 new, 0 known), 0 hits"));
  EXPECT_EQ(TriageJson(*rows), "{\"buckets\": [], \"hits\": 0}\n");
}

TEST(KnownFindings, ParsedWithCommentsAndRefusedWhereMalformed) {
  const std::string key = "imm_atomic_imax|u-raw|in-bounds|wrong-return|wine";
  absl::StatusOr<KnownFindings> known = KnownFindings::Parse(
      "# comment\n\n" + key + " = #13 signed max dropped\n", "K");
  ASSERT_TRUE(known.ok()) << known.status();
  ASSERT_NE(known->Find(key), nullptr);
  EXPECT_EQ(*known->Find(key), "#13 signed max dropped");
  EXPECT_EQ(known->Find(key + "x"), nullptr);
  absl::StatusOr<KnownFindings> twice =
      KnownFindings::Parse(key + " = a\n" + key + " = b\n", "K");
  EXPECT_TRUE(absl::StrContains(twice.status().message(),
                                "K:2: expected each key once"))
      << twice.status();
  absl::StatusOr<KnownFindings> bad =
      KnownFindings::Parse("imax|u-raw = not a whole key\n", "K");
  EXPECT_TRUE(absl::StrContains(bad.status().message(), "K:1: expected"))
      << bad.status();
}

}  // namespace
}  // namespace atomfuzz::fuzz
