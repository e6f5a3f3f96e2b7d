// atomfuzz merge: the fewest cases that keep every feature, and nothing
// added by merging what is already there.
#include "fuzz/campaign/corpus_merge.h"

#include <unistd.h>

#include <filesystem>
#include <string>

#include "fuzz/runner.h"
#include "gtest/gtest.h"
#include "tests/fuzz/corpus_files.h"

namespace atomfuzz::fuzz {
namespace {

namespace fs = std::filesystem;

TEST(MergeCorpus, KeepsEveryFeatureInFewerCasesAndAddsNothingTwice) {
  const std::string out =
      ::testing::TempDir() + "/merge-" + std::to_string(getpid());
  fs::remove_all(out);
  RunOptions run;
  run.target = "fast";
  run.target_options.deterministic = true;
  absl::StatusOr<std::unique_ptr<targets::Target>> target = MakeTarget(run);
  ASSERT_TRUE(target.ok()) << target.status();
  const std::string seeds = (testutil::ProjectRoot() / "corpus/seed").string();

  absl::StatusOr<MergeResult> first = MergeCorpus({seeds}, out, **target);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->existing, 0u);
  EXPECT_GT(first->inputs, 0u);
  EXPECT_GT(first->added, 0u);
  EXPECT_LT(first->added, first->inputs);  // the seeds overlap
  EXPECT_GT(first->features, 0u);

  // Merged again, into what it made: every feature is there already.
  absl::StatusOr<MergeResult> again = MergeCorpus({seeds}, out, **target);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->existing, first->added);
  EXPECT_EQ(again->added, 0u);
  EXPECT_EQ(again->features, first->features);

  // Merged from what it made into a fresh directory: the same features.
  const std::string copy = out + "-copy";
  fs::remove_all(copy);
  absl::StatusOr<MergeResult> from_kept = MergeCorpus({out}, copy, **target);
  ASSERT_TRUE(from_kept.ok()) << from_kept.status();
  EXPECT_EQ(from_kept->features, first->features);
  EXPECT_LE(from_kept->added, first->added);

  absl::StatusOr<MergeResult> bad =
      MergeCorpus({out + "/no-such.case"}, copy, **target);
  EXPECT_TRUE(absl::IsInvalidArgument(bad.status())) << bad.status();
  fs::remove_all(out);
  fs::remove_all(copy);
}

}  // namespace
}  // namespace atomfuzz::fuzz
