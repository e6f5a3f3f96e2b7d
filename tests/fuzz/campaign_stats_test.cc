// What a run adds to the campaign's coverage: features for the corpus and
// counts for the matrix.
#include "fuzz/campaign_stats.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "isa/case_file.h"
#include "targets/registry.h"

namespace atomfuzz::fuzz {
namespace {

// Two threads add to one word; then, with `endless`, loop forever.
isa::Case TwoAdders(bool endless) {
  const std::string text = std::string(
      "[dispatch]\ngroups 1, 1, 1\n[uav u0]\nkind raw\nwords 1\n[shader]\ncs_5_0\n"
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
  absl::StatusOr<std::unique_ptr<targets::Target>> t = targets::CreateTarget("fast", options);
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
  ASSERT_GT(o.trace.size(), 100u);  // the loop's atomics until the budget ran out
  WorkerCounters counters;
  std::vector<int> features = {1, 2, 3};
  CountCoverage(c, o, counters, features);
  EXPECT_EQ(Counted(counters), 0u);
  EXPECT_TRUE(features.empty());
}

}  // namespace
}  // namespace atomfuzz::fuzz
