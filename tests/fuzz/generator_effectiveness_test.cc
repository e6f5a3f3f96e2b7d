// How well generated cases find bugs (mutation testing, MC Mutants style):
// with each injected bug of the fast target on, seeded cases of the default
// policy are judged until one diverges; with none on, no case may diverge.
// Disabled by default (minutes, and timings); run with
//   fuzz_test --gtest_also_run_disabled_tests \
//       --gtest_filter='GeneratorEffectiveness*'
// ATOMFUZZ_GENERATOR_CASES (default 100000) bounds each search and sets the
// size of the no-injection run.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "fuzz/differential.h"
#include "fuzz/generate/choices.h"
#include "fuzz/generate/generator.h"
#include "fuzz/generate/policy.h"
#include "fuzz/runner.h"
#include "gtest/gtest.h"
#include "targets/fast/injection.h"

namespace atomfuzz::fuzz {
namespace {

using Clock = std::chrono::steady_clock;

uint64_t CaseBudget() {
  const char* v = std::getenv("ATOMFUZZ_GENERATOR_CASES");
  return v != nullptr ? std::strtoull(v, nullptr, 10) : 100000;
}

std::unique_ptr<targets::Target> FastTarget(const std::string& inject) {
  RunOptions o;
  o.target = "fast";
  o.target_options.flags["inject"] = inject;
  o.target_options.deterministic = true;
  o.target_options.threads = 1;
  absl::StatusOr<std::unique_ptr<targets::Target>> t = MakeTarget(o);
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *std::move(t) : nullptr;
}

bool Diverges(const isa::Case& c, targets::Target& target) {
  absl::StatusOr<Differential> d = RunAndJudge(c, target);
  EXPECT_TRUE(d.ok()) << d.status();
  return d.ok() && d->verdict.kind == oracle::Verdict::Kind::kDivergence;
}

// Cases until the first divergence that the correct target does not share.
TEST(GeneratorEffectivenessTest, DISABLED_EveryInjectionIsFoundQuickly) {
  const Policy policy;
  const uint64_t budget = CaseBudget();
  std::unique_ptr<targets::Target> clean = FastTarget("");
  ASSERT_NE(clean, nullptr);
  std::cout << absl::StrFormat("%-26s %8s %9s\n", "injection", "cases",
                               "seconds");
  for (const targets::fast::InjectionInfo& info :
       targets::fast::AllInjections()) {
    std::unique_ptr<targets::Target> target =
        FastTarget(std::string(info.name));
    ASSERT_NE(target, nullptr);
    const auto start = Clock::now();
    uint64_t found = 0;
    for (uint64_t i = 0; i < budget && found == 0; ++i) {
      SeededChoices choices(CaseSeed(1, i));
      const isa::Case c = GenerateCase(choices, policy);
      if (Diverges(c, *target) && !Diverges(c, *clean)) found = i + 1;
    }
    const double seconds =
        std::chrono::duration<double>(Clock::now() - start).count();
    std::cout << absl::StrFormat("%-26s %8d %9.3f\n", info.name, found,
                                 seconds);
    EXPECT_GT(found, 0u) << info.name << " not found in " << budget << " cases";
  }
}

TEST(GeneratorEffectivenessTest, DISABLED_NoDivergenceWithoutInjection) {
  const Policy policy;
  const uint64_t budget = CaseBudget();
  std::unique_ptr<targets::Target> target = FastTarget("");
  ASSERT_NE(target, nullptr);
  const auto start = Clock::now();
  std::vector<uint64_t> divergent;
  for (uint64_t i = 0; i < budget; ++i) {
    SeededChoices choices(CaseSeed(1, i));
    if (Diverges(GenerateCase(choices, policy), *target))
      divergent.push_back(i);
  }
  const double seconds =
      std::chrono::duration<double>(Clock::now() - start).count();
  std::cout << absl::StrFormat("%d cases in %.1f s (%.0f cases/s)\n", budget,
                               seconds, budget / seconds);
  for (size_t k = 0; k < std::min<size_t>(divergent.size(), 10); ++k) {
    ADD_FAILURE() << absl::StrFormat(
        "divergence without an injection: SeededChoices(CaseSeed(1, %d)) "
        "= seed 0x%x",
        divergent[k], CaseSeed(1, divergent[k]));
  }
  EXPECT_EQ(divergent.size(), 0u);
}

}  // namespace
}  // namespace atomfuzz::fuzz
