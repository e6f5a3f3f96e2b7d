// Batched runs before the oracle's judge: generated cases (racy ones
// among them) batched by targets/case_batch.h and run on the fast target
// with several workers, so that groups of the batch really race, and each
// split, decoded outcome must be allowed on its original case. On a Vulkan
// device, RunBatch may not turn any case into a divergence that Run does
// not find.
#include <array>
#include <map>
#include <memory>
#include <set>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "fuzz/generate/choices.h"
#include "fuzz/generate/generator.h"
#include "fuzz/generate/policy.h"
#include "gtest/gtest.h"
#include "isa/validator.h"
#include "oracle/judge.h"
#include "targets/case_batch.h"
#include "targets/fast/fast_target.h"
#include "targets/registry.h"
#include "targets/trace_instrumentation.h"

namespace atomfuzz::fuzz {
namespace {

std::vector<isa::Case> Generated(const std::string& policy_name, int n) {
  const Policy policy = *PolicyByName(policy_name);
  std::vector<isa::Case> cases;
  for (uint64_t seed = 1; cases.size() < static_cast<size_t>(n); ++seed) {
    SeededChoices choices(seed);
    cases.push_back(GenerateCase(choices, policy));
  }
  return cases;
}

// How many atomics of the case may touch one word from two threads: a
// rough sign that the case is racy (the judge decides).
bool SharesWords(const isa::Outcome& o) {
  std::map<std::tuple<isa::RegFile, uint32_t, uint32_t>,
           std::set<std::array<uint32_t, 6>>>
      who;
  for (const isa::AtomicEvent& e : o.trace) {
    who[{e.file, e.slot, e.word}].insert({e.group[0], e.group[1], e.group[2],
                                          e.thread[0], e.thread[1],
                                          e.thread[2]});
  }
  for (const auto& [word, threads] : who) {
    if (threads.size() > 1) return true;
  }
  return false;
}

struct Counts {
  int judged = 0, allowed = 0, racy = 0;
};

// Runs the instrumented cases of one batch key in batches of up to
// `per_batch` on `fast`, and judges every split outcome.
void JudgeBatches(targets::Target& fast, const std::vector<isa::Case>& cases,
                  const std::vector<targets::InstrumentedCase>& ics,
                  const std::vector<size_t>& members, size_t per_batch,
                  Counts& counts) {
  for (size_t first = 0; first < members.size(); first += per_batch) {
    std::vector<const isa::Case*> batch;
    for (size_t k = first; k < std::min(members.size(), first + per_batch);
         ++k) {
      batch.push_back(&ics[members[k]].instrumented);
    }
    absl::StatusOr<targets::Batch> b = targets::BatchCases(batch);
    ASSERT_TRUE(b.ok()) << b.status();
    absl::StatusOr<isa::Outcome> run = fast.Run(b->combined);
    ASSERT_TRUE(run.ok()) << run.status();
    if (run->status != isa::RunStatus::kOk) continue;  // a budget: not judged
    std::vector<isa::Outcome> split =
        targets::SplitBatchOutcome(*std::move(run), *b);
    for (size_t k = 0; k < split.size(); ++k) {
      const size_t i = members[first + k];
      const isa::Outcome o =
          targets::DecodeTrace(cases[i], ics[i].layout, std::move(split[k]));
      oracle::JudgeOptions judge;
      judge.search_budget = 1u << 16;
      absl::StatusOr<oracle::Verdict> v = oracle::Judge(cases[i], o, judge);
      ASSERT_TRUE(v.ok()) << v.status();
      EXPECT_NE(v->kind, oracle::Verdict::Kind::kDivergence)
          << "generated case " << i << ": " << v->Summary() << "\n"
          << isa::PrintCase(cases[i]);
      ++counts.judged;
      counts.allowed += v->kind == oracle::Verdict::Kind::kAllowed;
      counts.racy += SharesWords(o);
    }
  }
}

TEST(BatchJudge, SplitOutcomesOfRacingBatchesAreAllowed) {
  targets::TargetOptions options;
  options.threads = 4;  // groups of one batch run at once
  options.max_steps_per_wave = 1u << 22;
  std::unique_ptr<targets::Target> fast =
      *targets::fast::CreateFastTarget(options);
  std::vector<isa::Case> cases = Generated("default", 240);
  for (isa::Case& c : Generated("tgsm", 60)) cases.push_back(std::move(c));
  std::vector<targets::InstrumentedCase> ics;
  std::map<targets::BatchKey, std::vector<size_t>> by_key;
  for (size_t i = 0; i < cases.size(); ++i) {
    absl::StatusOr<targets::InstrumentedCase> ic =
        targets::InstrumentForTrace(cases[i]);
    ASSERT_TRUE(ic.ok()) << ic.status();
    ics.push_back(*std::move(ic));
  }
  for (size_t i = 0; i < cases.size(); ++i) {
    if (auto key = targets::BatchKeyOf(ics[i].instrumented))
      by_key[*key].push_back(i);
  }
  Counts counts;
  for (const auto& [key, members] : by_key) {
    JudgeBatches(*fast, cases, ics, members, 8, counts);
  }
  std::printf(
      "judged %d split outcomes: %d allowed, %d with words shared between "
      "threads\n",
      counts.judged, counts.allowed, counts.racy);
  EXPECT_GT(counts.judged, 250);
  EXPECT_GT(counts.allowed, 200);
  EXPECT_GT(counts.racy, 50);
}

TEST(BatchJudge, VulkanRunBatchFindsNoDivergenceRunDoesNot) {
  targets::TargetOptions options;
  absl::StatusOr<std::unique_ptr<targets::Target>> vulkan =
      targets::CreateTarget("vulkan", options);
  ASSERT_TRUE(vulkan.ok()) << vulkan.status();
  const std::vector<isa::Case> cases = Generated("default", 60);
  absl::StatusOr<isa::Outcome> probe = (*vulkan)->Run(cases[0]);
  if (!probe.ok()) GTEST_SKIP() << probe.status();
  std::vector<absl::StatusOr<isa::Outcome>> batched =
      (*vulkan)->RunBatch(cases);
  ASSERT_EQ(batched.size(), cases.size());
  int divergences = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    ASSERT_TRUE(batched[i].ok()) << batched[i].status();
    absl::StatusOr<oracle::Verdict> v = oracle::Judge(cases[i], *batched[i]);
    ASSERT_TRUE(v.ok()) << v.status();
    if (v->kind != oracle::Verdict::Kind::kDivergence) continue;
    ++divergences;
    absl::StatusOr<isa::Outcome> alone = (*vulkan)->Run(cases[i]);
    ASSERT_TRUE(alone.ok()) << alone.status();
    absl::StatusOr<oracle::Verdict> w = oracle::Judge(cases[i], *alone);
    ASSERT_TRUE(w.ok()) << w.status();
    EXPECT_EQ(w->kind, oracle::Verdict::Kind::kDivergence)
        << "generated case " << i
        << " diverges only in a batch: " << v->Summary();
  }
  std::printf("divergences on vulkan (each also alone): %d of %zu\n",
              divergences, cases.size());
}

}  // namespace
}  // namespace atomfuzz::fuzz
