// What a run adds to the campaign's coverage: features for the corpus and
// counts for the matrix.
#include "fuzz/campaign/campaign_stats.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "isa/case_file.h"
#include "targets/registry.h"

namespace atomfuzz::fuzz {
namespace {

// Two threads add to one word; then, with `endless`, loop forever.
isa::Case TwoAdders(bool endless) {
  const std::string text =
      std::string(
          "[dispatch]\ngroups 1, 1, 1\n[uav u0]\nkind raw\nwords "
          "1\n[shader]\ncs_5_0\n"
          "dcl_uav_raw u0\ndcl_temps 1\ndcl_thread_group 2, 1, 1\n"
          "imm_atomic_iadd r0.x, u0, l(0), l(1)\n") +
      (endless ? "loop\natomic_iadd u0, l(0), l(1)\nendloop\n" : "") + "ret\n";
  absl::StatusOr<isa::Case> c = isa::ParseCase(text, "two-adders.case");
  EXPECT_TRUE(c.ok()) << c.status();
  return *c;
}

isa::Outcome RunFast(const isa::Case& c) {
  targets::TargetOptions options;
  options.trace = true;
  options.deterministic = true;
  options.max_steps_per_wave = 1000;
  absl::StatusOr<std::unique_ptr<targets::Target>> t =
      targets::CreateTarget("fast", options);
  EXPECT_TRUE(t.ok()) << t.status();
  absl::StatusOr<isa::Outcome> o = (*t)->Run(c);
  EXPECT_TRUE(o.ok()) << o.status();
  return *o;
}

uint64_t Counted(const WorkerCounters& counters) {
  uint64_t n = 0;
  for (const auto& op : counters.coverage) {
    for (const auto& kind : op) {
      for (const auto& cell : kind) n += cell.load();
    }
  }
  return n;
}

TEST(CountCoverage, AFinishedRunCountsEveryAtomicAndHasFeatures) {
  const isa::Case c = TwoAdders(false);
  const isa::Outcome o = RunFast(c);
  ASSERT_EQ(o.status, isa::RunStatus::kOk);
  WorkerCounters counters;
  std::vector<int> features;
  CountCoverage(c, o, counters, features);
  EXPECT_EQ(Counted(counters), 2u);
  EXPECT_EQ(features.size(), 1u);  // one cell, two threads on one word
}

TEST(CountCoverage, ARunCutShortByItsBudgetAddsNothing) {
  const isa::Case c = TwoAdders(true);
  const isa::Outcome o = RunFast(c);
  ASSERT_EQ(o.status, isa::RunStatus::kBudgetExceeded);
  ASSERT_GT(o.trace.size(),
            100u);  // the loop's atomics until the budget ran out
  WorkerCounters counters;
  std::vector<int> features = {1, 2, 3};
  CountCoverage(c, o, counters, features);
  EXPECT_EQ(Counted(counters), 0u);
  EXPECT_TRUE(features.empty());
}

// A hand-made trace: three atomics on word 0, one on word 1, one out of
// bounds; the features carry each word's alias bucket, sorted and distinct,
// and a second call (the scratch reused) gives the same.
TEST(CountCoverage, AliasBucketsCountTheAtomicsOnEachWord) {
  const isa::Case c = TwoAdders(false);  // instruction 3: imm_atomic_iadd on u0
  isa::Outcome o;
  o.has_trace = true;
  auto event = [](uint32_t word, isa::AddressClass cls) {
    isa::AtomicEvent e;
    e.instruction = 3;
    e.word = word;
    e.address = cls;
    return e;
  };
  for (int k = 0; k < 3; ++k)
    o.trace.push_back(event(0, isa::AddressClass::kInBounds));
  o.trace.push_back(event(1, isa::AddressClass::kInBounds));
  o.trace.push_back(event(9, isa::AddressClass::kSkip));
  const int op = static_cast<int>(isa::Op::kImmAtomicIAdd) -
                 static_cast<int>(isa::Op::kAtomicAnd);
  const int kind = static_cast<int>(isa::TargetKind::kUavRaw);
  auto feature = [&](isa::AddressClass cls, int alias) {
    const int cell =
        (op * isa::kTargetKindCount + kind) * isa::kAddressClassCount +
        static_cast<int>(cls);
    return cell * kAliasBuckets + alias;
  };
  std::vector<int> expected = {
      feature(isa::AddressClass::kInBounds, 0),  // word 1
      feature(isa::AddressClass::kInBounds, 2),  // word 0: 3
      feature(isa::AddressClass::kSkip, 0)};
  std::sort(expected.begin(), expected.end());
  for (int run = 0; run < 2; ++run) {
    WorkerCounters counters;
    std::vector<int> features;
    CountCoverage(c, o, counters, features);
    EXPECT_EQ(features, expected);
    EXPECT_EQ(Counted(counters), 5u);
  }
}

// A failed write stops the campaign and is said once, at once; a good one
// changes nothing.
TEST(WriteSucceeded, AFailedWriteStopsTheCampaignAndIsReportedOnce) {
  auto shared_owner = std::make_unique<SharedState>();  // about 1 MiB
  SharedState& shared = *shared_owner;
  std::FILE* log = std::tmpfile();
  ASSERT_NE(log, nullptr);
  EXPECT_TRUE(WriteSucceeded(shared, log, "a finding", absl::OkStatus()));
  EXPECT_EQ(shared.stop.load(), 0u);
  const absl::Status full =
      absl::ResourceExhaustedError("No space left on device");
  EXPECT_FALSE(WriteSucceeded(shared, log, "a finding", full));
  EXPECT_FALSE(WriteSucceeded(shared, log, "stats.json", full));
  EXPECT_EQ(shared.stop.load(), 1u);
  EXPECT_EQ(shared.write_failed.load(), 1u);
  std::rewind(log);
  char text[512] = {};
  const size_t n = std::fread(text, 1, sizeof text - 1, log);
  std::fclose(log);
  EXPECT_EQ(std::string(text, n),
            "atomfuzz: cannot write a finding: No space left on device; "
            "stopping the campaign "
            "(what was written is kept)\n");
}

// A resumed campaign starts knowing the features earlier sessions saw
// (else it keeps again every case that first reaches one).
TEST(SeenFeatures, RoundTripThroughTheirText) {
  auto seen = std::make_unique<SharedState>();
  for (int f : {0, 1, 5, kFeatureCount - 1}) seen->seen[f].store(1);
  const std::string text = SeenFeaturesText(*seen);
  auto loaded = std::make_unique<SharedState>();
  ASSERT_TRUE(LoadSeenFeatures(text, "DIR/features", *loaded).ok());
  for (int f = 0; f < kFeatureCount; ++f)
    EXPECT_EQ(loaded->seen[f].load(), seen->seen[f].load()) << f;
}

TEST(SeenFeatures, TextOfAnotherBuildIsBadInputNamingTheFile) {
  auto shared = std::make_unique<SharedState>();
  absl::Status s = LoadSeenFeatures("00ff", "DIR/features", *shared);
  EXPECT_TRUE(absl::IsInvalidArgument(s));
  EXPECT_NE(s.message().find("DIR/features:1: expected"), std::string::npos)
      << s;
  std::string bad = SeenFeaturesText(*shared);
  bad[3] = 'x';
  s = LoadSeenFeatures(bad, "DIR/features", *shared);
  EXPECT_NE(s.message().find("DIR/features:1:4: expected a hex digit"),
            std::string::npos)
      << s;
}

}  // namespace
}  // namespace atomfuzz::fuzz
