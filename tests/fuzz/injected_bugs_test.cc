// Every injected bug of the fast target (targets/fast/injection.h) is caught:
// with it on, in deterministic mode, at least one corpus case is judged a
// divergence. Parameterized over AllInjections(), so a new injection is
// tested without touching this file. Each run starts with a small case known
// to catch its injection (docs/injected-bugs.md lists more), then walks the
// whole corpus until some case diverges: the assertion is only "some case
// catches it". (That no case diverges with no injection is
// fast_target_corpus_test.)
#include <algorithm>
#include <cctype>
#include <iostream>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "fuzz/differential.h"
#include "fuzz/runner.h"
#include "gtest/gtest.h"
#include "targets/fast/injection.h"
#include "tests/fuzz/corpus_files.h"

namespace atomfuzz::fuzz {
namespace {

using targets::fast::AllInjections;
using targets::fast::InjectionInfo;

// A small corpus case known to catch each injection: tried first so the
// usual run judges one case. Only a speed-up; a stale entry still passes if
// another case diverges.
const absl::flat_hash_map<std::string, std::string>& FirstTries() {
  static const auto* const kFirst = new absl::flat_hash_map<std::string,
                                                            std::string>{
      {"imax-unsigned", "corpus/spec/e02-signed-extremes.case"},
      {"umax-signed", "corpus/spec/e02-signed-extremes.case"},
      {"cmpxchg-swapped", "corpus/spec/e05-cmp-operand-order.case"},
      {"cmpxchg-success-flag", "corpus/spec/e06-cmp-exch-fail.case"},
      {"return-new", "corpus/spec/e07-returns-old.case"},
      {"oob-wrap", "corpus/spec/e12-raw-bounds.case"},
      {"structured-offset-ignored", "corpus/spec/e11-constant-addresses.case"},
      {"structured-index-wrap32", "corpus/spec/e17-structured-index-wrap.case"},
      {"tex2d-y-ignored", "corpus/spec/e18-typed-coord-extent.case"},
      {"tgsm-shared", "corpus/spec/e25-iadd-n-threads.case"},
      {"consume-pre-decrement", "corpus/spec/e36-counter-wraps.case"},
      {"rmw-not-atomic", "corpus/spec/e25-iadd-n-threads.case"},
      {"dst0-wrong-component", "corpus/spec/e09-dst0-component.case"},
      {"sync-no-wait", "corpus/spec/e30-sync-t-uniform-flow.case"},
      {"xor-as-or", "corpus/spec/e25b-commutative-prefix-sets.case"},
      {"iadd-saturate", "corpus/spec/e01-iadd-wrap.case"},
      {"helper-atomics-write", "corpus/spec/p02-helper-in-partial-quad.case"},
      {"discard-ignored-by-atomics",
       "corpus/spec/p01-inactive-after-discard.case"},
      {"discard-kills-derivatives", "corpus/spec/p06-undefined-return.case"},
  };
  return *kFirst;
}

// The corpus with `first` (if it is part of it) moved to the front.
std::vector<std::string> CorpusStartingWith(const std::string& first) {
  std::vector<std::string> files = testutil::CorpusCaseFiles();
  auto it = std::find(files.begin(), files.end(), first);
  if (it != files.end()) std::rotate(files.begin(), it, it + 1);
  return files;
}

std::vector<std::string> InjectionNames() {
  std::vector<std::string> names;
  for (const InjectionInfo& i : AllInjections()) names.emplace_back(i.name);
  return names;
}

class InjectedBugTest : public ::testing::TestWithParam<std::string> {};

TEST_P(InjectedBugTest, SomeCorpusCaseDiverges) {
  const std::string& name = GetParam();
  RunOptions options;
  options.target = "fast";
  options.target_options.deterministic = true;
  options.target_options.flags["inject"] = name;
  auto target = MakeTarget(options);
  ASSERT_TRUE(target.ok()) << target.status();

  const auto first = FirstTries().find(name);
  const std::vector<std::string> files =
      CorpusStartingWith(first == FirstTries().end() ? "" : first->second);
  ASSERT_FALSE(files.empty())
      << "no corpus found from " << testutil::ProjectRoot();
  int judged = 0;
  for (const std::string& file : files) {
    absl::StatusOr<isa::Case> c = testutil::LoadCorpusCase(file);
    ASSERT_TRUE(c.ok()) << c.status();
    absl::StatusOr<Differential> d = RunAndJudge(*c, **target);
    ASSERT_TRUE(d.ok()) << file << ": " << d.status();
    ++judged;
    if (d->verdict.kind == oracle::Verdict::Kind::kDivergence) {
      RecordProperty("caught_by", file);
      std::cout << name << " caught by " << file << " (" << judged
                << " judged): " << d->verdict.Summary().substr(0, 160) << "\n";
      return;
    }
  }
  ADD_FAILURE() << "injected bug '" << name << "' survives all " << judged
                << " corpus cases: no case is judged a divergence";
}

std::string NameOf(const ::testing::TestParamInfo<std::string>& info) {
  std::string name;
  for (char c : info.param)
    name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(AllInjections, InjectedBugTest,
                         ::testing::ValuesIn(InjectionNames()), NameOf);

TEST(InjectedBugs, NamesRoundTripAndAreUnique) {
  std::vector<std::string> names = InjectionNames();
  EXPECT_FALSE(names.empty());
  for (const InjectionInfo& i : AllInjections()) {
    EXPECT_EQ(targets::fast::InjectionFromName(i.name), i.inject) << i.name;
    EXPECT_NE(i.inject, targets::fast::Inject::kNone) << i.name;
    EXPECT_FALSE(i.summary.empty()) << i.name;
  }
  EXPECT_EQ(targets::fast::InjectionFromName(""), targets::fast::Inject::kNone);
  std::sort(names.begin(), names.end());
  EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end());
}

TEST(InjectedBugs, FirstTriesNameRealInjectionsAndFiles) {
  // Keeps the speed-up table honest when an injection is renamed or a case
  // moves.
  const std::vector<std::string> files = testutil::CorpusCaseFiles();
  for (const auto& [name, file] : FirstTries()) {
    EXPECT_TRUE(targets::fast::InjectionFromName(name).has_value()) << name;
    EXPECT_NE(std::find(files.begin(), files.end(), file), files.end()) << file;
  }
}

}  // namespace
}  // namespace atomfuzz::fuzz
