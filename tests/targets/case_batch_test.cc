// Batching must not change what a case does: on the fast target in
// deterministic mode (groups run in order, so even racy cases repeat), each
// instrumented case run inside a batch and split back out has exactly the
// outcome it has alone (memory, counters, the fast target's own trace in the
// case's instruction indices), and so the same trace after DecodeTrace. The
// combined case passes the validator and the DXBC encoder.
#include "targets/case_batch.h"

#include <map>
#include <memory>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "isa/dxbc.h"
#include "isa/validator.h"
#include "targets/fast/fast_target.h"
#include "targets/trace_instrumentation.h"
#include "tests/fuzz/corpus_files.h"
#include "tests/targets/random_program.h"

namespace atomfuzz::targets {
namespace {

std::unique_ptr<Target> Fast() {
  TargetOptions options;
  options.deterministic = true;
  options.max_steps_per_wave = 1u << 22;  // room for the logging code
  return *fast::CreateFastTarget(options);
}

// One case, instrumented, with its outcome alone.
struct Prepared {
  std::string name;
  isa::Case original;
  InstrumentedCase ic;
  isa::Outcome alone;
};

void ExpectSameOutcome(const isa::Outcome& got, const isa::Outcome& want,
                       const std::string& name) {
  EXPECT_EQ(got.status, want.status) << name;
  EXPECT_EQ(got.message, want.message) << name;
  EXPECT_EQ(got.uavs, want.uavs) << name;
  EXPECT_EQ(got.has_trace, want.has_trace) << name;
  EXPECT_EQ(got.trace.size(), want.trace.size()) << name;
  EXPECT_TRUE(got.trace == want.trace) << name;
}

// Prepares `c` when it is valid, instruments and runs to the end alone.
void Prepare(Target& fast, const isa::Case& c, const std::string& name,
             std::vector<Prepared>& out) {
  if (!isa::Validate(c).ok()) return;
  absl::StatusOr<InstrumentedCase> ic = InstrumentForTrace(c);
  if (!ic.ok()) return;
  absl::StatusOr<isa::Outcome> alone = fast.Run(ic->instrumented);
  ASSERT_TRUE(alone.ok()) << name;
  // A run out of budget ends the whole batch's run: not comparable.
  if (alone->status != isa::RunStatus::kOk) return;
  out.push_back({name, c, *std::move(ic), *std::move(alone)});
}

// Runs one batch and compares every case with its run alone.
void ExpectBatchMatches(Target& fast,
                        const std::vector<const Prepared*>& cases) {
  std::vector<const isa::Case*> instrumented;
  for (const Prepared* p : cases) instrumented.push_back(&p->ic.instrumented);
  absl::StatusOr<Batch> batch = BatchCases(instrumented);
  ASSERT_TRUE(batch.ok()) << batch.status();
  ASSERT_EQ(batch->slices.size(), cases.size());
  EXPECT_TRUE(isa::Validate(batch->combined).ok())
      << isa::Validate(batch->combined);
  absl::StatusOr<std::vector<uint8_t>> dxbc =
      isa::EncodeDxbc(batch->combined.shader);
  EXPECT_TRUE(dxbc.ok()) << dxbc.status();
  absl::StatusOr<isa::Outcome> run = fast.Run(batch->combined);
  ASSERT_TRUE(run.ok());
  ASSERT_EQ(run->status, isa::RunStatus::kOk) << run->message;
  std::vector<isa::Outcome> split = SplitBatchOutcome(*std::move(run), *batch);
  ASSERT_EQ(split.size(), cases.size());
  for (size_t k = 0; k < cases.size(); ++k) {
    const Prepared& p = *cases[k];
    ExpectSameOutcome(split[k], p.alone, p.name);
    const isa::Outcome mine = DecodeTrace(p.original, p.ic.layout, split[k]);
    const isa::Outcome theirs = DecodeTrace(p.original, p.ic.layout, p.alone);
    EXPECT_TRUE(mine.has_trace) << p.name << ": " << mine.message;
    ExpectSameOutcome(mine, theirs, p.name);
  }
}

// Batches the cases per key, as many as fit; returns how many cases ran in
// a batch of two or more.
size_t ExpectBatchesMatch(Target& fast, const std::vector<Prepared>& cases,
                          const BatchLimits& limits = {}) {
  std::map<BatchKey, std::vector<const Prepared*>> by_key;
  for (const Prepared& p : cases) {
    if (std::optional<BatchKey> key = BatchKeyOf(p.ic.instrumented))
      by_key[*key].push_back(&p);
  }
  size_t batched = 0;
  for (const auto& [key, group] : by_key) {
    std::vector<const Prepared*> batch;
    BatchBuilder builder(limits);
    auto flush = [&] {
      if (batch.size() > 1) batched += batch.size();
      if (!batch.empty()) ExpectBatchMatches(fast, batch);
      batch.clear();
      builder = BatchBuilder(limits);
    };
    for (const Prepared* p : group) {
      if (!builder.Add(p->ic.instrumented)) {
        flush();
        if (!builder.Add(p->ic.instrumented)) continue;
      }
      batch.push_back(p);
    }
    flush();
  }
  return batched;
}

TEST(CaseBatch, CorpusCasesBatchedBehaveAsAlone) {
  std::unique_ptr<Target> fast = Fast();
  std::vector<Prepared> cases;
  for (const std::string& f : fuzz::testutil::CorpusCaseFiles()) {
    absl::StatusOr<isa::Case> c = fuzz::testutil::LoadCorpusCase(f);
    ASSERT_TRUE(c.ok()) << c.status();
    Prepare(*fast, *c, f, cases);
  }
  ASSERT_GT(cases.size(), 100u);
  EXPECT_GT(ExpectBatchesMatch(*fast, cases), 60u);
}

TEST(CaseBatch, RandomCasesBatchedBehaveAsAlone) {
  std::unique_ptr<Target> fast = Fast();
  // Small groups, so that many cases share a group size.
  testutil::RandomCasePolicy policy;
  policy.max_group_threads = 4;
  policy.odd_dispatch = 0;
  std::vector<Prepared> cases;
  for (uint64_t seed = 1; cases.size() < 150 && seed < 8000; ++seed) {
    const testutil::RandomCase rc = testutil::MakeRandomCase(seed, policy);
    if (rc.unbalanced) continue;
    Prepare(*fast, rc.c, absl::StrCat("random seed ", seed), cases);
  }
  ASSERT_GE(cases.size(), 100u);
  EXPECT_GT(ExpectBatchesMatch(*fast, cases), 80u);
  // Batches of two and three: other trees, other extents.
  BatchLimits small;
  small.max_cases = 3;
  EXPECT_GT(ExpectBatchesMatch(*fast, cases, small), 80u);
}

isa::Case Parse(const std::string& text) {
  absl::StatusOr<isa::Case> c = isa::ParseCase(text);
  EXPECT_TRUE(c.ok()) << c.status();
  EXPECT_TRUE(isa::Validate(*c).ok()) << isa::Validate(*c);
  return c.ok() ? *c : isa::Case{};
}

// `uavs` raw UAVs of 4 words and a g0 of `tgsm` bytes, each thread adding
// 1 to word 0 of each.
isa::Case Adder(int uavs, int tgsm, int group = 2) {
  std::string text = "[dispatch]\ngroups 1, 1, 1\n";
  std::string decls, body;
  for (int u = 0; u < uavs; ++u) {
    absl::StrAppend(&text, "[uav u", u, "]\nkind raw\nwords 4\n");
    absl::StrAppend(&decls, "dcl_uav_raw u", u, "\n");
    absl::StrAppend(&body, "atomic_iadd u", u, ", l(0), l(1)\n");
  }
  if (tgsm > 0) {
    absl::StrAppend(&decls, "dcl_tgsm_raw g0, ", tgsm, "\n");
    absl::StrAppend(&body, "atomic_iadd g0, l(0), l(1)\n");
  }
  return Parse(absl::StrCat(text, "[shader]\ncs_5_0\n", decls,
                            "dcl_thread_group ", group, ", 1, 1\n", body,
                            "ret\n"));
}

TEST(CaseBatch, StopsAtTheSlotAndMemoryLimits) {
  const isa::Case four = Adder(4, 0);
  BatchBuilder builder;
  int added = 0;
  while (added < 20 && builder.Add(four)) ++added;
  EXPECT_EQ(added, 16);  // 64 u# slots (spec 1.1)
  // Another group size never joins.
  BatchBuilder sizes;
  EXPECT_TRUE(sizes.Add(Adder(1, 0, 2)));
  EXPECT_FALSE(sizes.Add(Adder(1, 0, 3)));
  // Alike g# declarations share a slot; others add up to the 32 KiB.
  BatchBuilder tgsm;
  const isa::Case a = Adder(1, 20000), b = Adder(1, 20000), c = Adder(1, 20004);
  EXPECT_TRUE(tgsm.Add(a));
  EXPECT_TRUE(tgsm.Add(b));
  EXPECT_FALSE(tgsm.Add(c));
  absl::StatusOr<Batch> batch = tgsm.Build();
  ASSERT_TRUE(batch.ok()) << batch.status();
  EXPECT_EQ(batch->slices[0].tgsm, batch->slices[1].tgsm);
  EXPECT_NE(batch->slices[0].uavs, batch->slices[1].uavs);
  const isa::Case* three[] = {&a, &b, &c};
  EXPECT_FALSE(BatchCases(three).ok());
}

}  // namespace
}  // namespace atomfuzz::targets
