// What the benchmarks of real translators share (real_targets_bench,
// pixel_bench): wall time, the campaign's own generated cases for a target,
// and their one command line, [--cases=N] [--seed=S].
#ifndef ATOMFUZZ_BENCH_TRANSLATOR_BENCH_H_
#define ATOMFUZZ_BENCH_TRANSLATOR_BENCH_H_

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "fuzz/campaign/campaign_corpus.h"
#include "fuzz/campaign/case_source.h"
#include "fuzz/generate/policy.h"
#include "targets/registry.h"

namespace atomfuzz::bench {

inline double Now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// N cases of `policy_name` for `target`, without the ops it declares
// unsupported, each from the seed and its index as a campaign generates
// them. The policy must exist.
inline std::vector<isa::Case> GeneratedCases(const std::string& policy_name,
                                             const std::string& target,
                                             uint64_t n, uint64_t seed) {
  fuzz::Policy policy = *fuzz::PolicyByName(policy_name);
  if (std::optional<targets::TargetInfo> row = targets::FindTarget(target)) {
    for (isa::Op op : row->unsupported)
      policy.op_weights[static_cast<size_t>(op)] = 0;
  }
  fuzz::CampaignCorpus empty("/nonexistent");
  std::vector<isa::Case> cases;
  for (uint64_t i = 0; i < n; ++i) {
    fuzz::CaseOrigin origin;
    cases.push_back(fuzz::NextCase(seed, i, 0, empty, policy, origin));
  }
  return cases;
}

struct CasesAndSeed {
  uint64_t cases = 50, seed = 1;
};

// [--cases=N] [--seed=S]; nullopt (after printing the usage) for anything
// else.
inline std::optional<CasesAndSeed> ParseCasesAndSeed(int argc, char** argv,
                                                     const char* program) {
  CasesAndSeed out;
  for (int i = 1; i < argc; ++i) {
    absl::string_view arg = argv[i];
    if (absl::ConsumePrefix(&arg, "--cases=") &&
        absl::SimpleAtoi(arg, &out.cases)) {
      continue;
    }
    if (absl::ConsumePrefix(&arg, "--seed=") &&
        absl::SimpleAtoi(arg, &out.seed)) {
      continue;
    }
    std::fprintf(stderr, "usage: %s [--cases=N] [--seed=S]\n", program);
    return std::nullopt;
  }
  return out;
}

}  // namespace atomfuzz::bench

#endif  // ATOMFUZZ_BENCH_TRANSLATOR_BENCH_H_
