// Every corpus case (corpus/seed, corpus/spec, corpus/regress) run on the fast
// target with no injected bug is judged `allowed`: once deterministic (one
// worker, fixed order) and once on all cores (threads 0, real races between
// workers). One test per file and mode, so a failure names both.
#include <string>
#include <tuple>

#include "absl/strings/match.h"
#include "fuzz/differential.h"
#include "fuzz/runner.h"
#include "gtest/gtest.h"
#include "tests/fuzz/corpus_files.h"

namespace atomfuzz::fuzz {
namespace {

enum class Mode { kDeterministic, kAllCores };

using Param = std::tuple<std::string, Mode>;

class FastTargetCorpusTest : public ::testing::TestWithParam<Param> {};

TEST_P(FastTargetCorpusTest, JudgedAllowed) {
  const auto& [file, mode] = GetParam();
  absl::StatusOr<isa::Case> c = testutil::LoadCorpusCase(file);
  ASSERT_TRUE(c.ok()) << c.status();
  RunOptions options;
  options.target = "fast";
  options.target_options.deterministic = mode == Mode::kDeterministic;
  options.target_options.threads = 0;  // all cores unless deterministic
  auto target = MakeTarget(options);
  ASSERT_TRUE(target.ok()) << target.status();
  absl::StatusOr<Differential> d = RunAndJudge(*c, **target);
  ASSERT_TRUE(d.ok()) << d.status();
  // Regression cases may run forever where the spec allows it (after an
  // undefined branch); seeds and spec cases all finish.
  if (!absl::StartsWith(file, "corpus/regress/")) {
    EXPECT_EQ(d->outcome.status, isa::RunStatus::kOk)
        << isa::RunStatusName(d->outcome.status) << ": " << d->outcome.message;
  }
  EXPECT_EQ(d->verdict.kind, oracle::Verdict::Kind::kAllowed)
      << file << ": " << d->verdict.Summary();
}

std::string NameOf(const ::testing::TestParamInfo<Param>& info) {
  return testutil::TestNameOf(std::get<0>(info.param)) +
         (std::get<1>(info.param) == Mode::kDeterministic ? "_deterministic"
                                                          : "_all_cores");
}

INSTANTIATE_TEST_SUITE_P(
    Corpus, FastTargetCorpusTest,
    ::testing::Combine(::testing::ValuesIn(testutil::CorpusCaseFiles()),
                       ::testing::Values(Mode::kDeterministic,
                                         Mode::kAllCores)),
    NameOf);

TEST(FastTargetCorpus, CorpusIsFound) {
  // Guards against a silently empty parameter list (wrong working directory).
  EXPECT_FALSE(testutil::CorpusCaseFiles().empty())
      << "no corpus/seed or corpus/spec cases found from "
      << testutil::ProjectRoot();
}

}  // namespace
}  // namespace atomfuzz::fuzz
