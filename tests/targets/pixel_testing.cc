#include "tests/targets/pixel_testing.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <tuple>

#include "gtest/gtest.h"
#include "oracle/interpreter.h"
#include "oracle/judge.h"
#include "tests/fuzz/corpus_files.h"

namespace atomfuzz::targets::testutil {
namespace {

constexpr char kDirectory[] = "tests/targets/pixel_cases";

using Key = std::tuple<std::array<uint32_t, 3>, std::array<uint32_t, 3>,
                       uint32_t, uint32_t>;

std::set<Key> Keys(const isa::Outcome& o) {
  std::set<Key> keys;
  for (const isa::AtomicEvent& e : o.trace) {
    keys.insert({e.group, e.thread, e.instruction, e.occurrence});
  }
  return keys;
}

}  // namespace

std::vector<std::string> PixelCaseFiles() {
  std::vector<std::string> out;
  const std::filesystem::path root = fuzz::testutil::ProjectRoot();
  if (root.empty()) return out;
  for (const auto& entry :
       std::filesystem::directory_iterator(root / kDirectory)) {
    if (entry.path().extension() == ".case") {
      out.push_back(std::string(kDirectory) + "/" +
                    entry.path().filename().string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

absl::StatusOr<isa::Case> LoadPixelCase(const std::string& relative) {
  return fuzz::testutil::LoadCorpusCase(relative);
}

void ExpectAgreesWithOracle(const isa::Case& c, const isa::Outcome& observed,
                            const std::string& name) {
  ASSERT_EQ(observed.status, isa::RunStatus::kOk)
      << name << ": " << observed.message;
  ASSERT_TRUE(observed.has_trace) << name << ": " << observed.message;
  absl::StatusOr<isa::Outcome> oracle = oracle::Interpret(c);
  ASSERT_TRUE(oracle.ok()) << name << ": " << oracle.status();
  ASSERT_EQ(oracle->status, isa::RunStatus::kOk) << name;
  ASSERT_EQ(observed.uavs.size(), oracle->uavs.size()) << name;
  for (size_t u = 0; u < oracle->uavs.size(); ++u) {
    const isa::UavState& want = oracle->uavs[u];
    const isa::UavState& got = observed.uavs[u];
    ASSERT_EQ(got.words.size(), want.words.size()) << name;
    for (size_t w = 0; w < want.words.size(); ++w) {
      if (!want.defined[w]) continue;
      EXPECT_EQ(got.words[w], want.words[w])
          << name << ": u" << want.slot << " word " << w;
    }
  }
  const std::set<Key> mine = Keys(observed), theirs = Keys(*oracle);
  EXPECT_EQ(mine.size(), observed.trace.size()) << name << ": duplicate keys";
  EXPECT_EQ(mine, theirs) << name << ": " << mine.size() << " events, the "
                          << "oracle's " << theirs.size();
  absl::StatusOr<oracle::Verdict> verdict = oracle::Judge(c, observed);
  ASSERT_TRUE(verdict.ok()) << name << ": " << verdict.status();
  EXPECT_EQ(verdict->kind, oracle::Verdict::Kind::kAllowed)
      << name << ": " << verdict->Summary();
}

}  // namespace atomfuzz::targets::testutil
