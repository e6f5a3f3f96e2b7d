// Cases per second of every real translator this machine offers (vulkan,
// vulkan-ssbo, wine-d3d11-gl, wine-d3d11-vk), measured in one run: on N
// generated cases (the campaign's generator, fixed seed, without what the
// target declares unsupported), and the ceiling of the same path, N
// shaders of one store each (distinct, so that no shader cache answers):
// what a case costs before its atomics. Wall time, one case at a time, as a
// campaign worker runs them; Mesa's shader cache off. A target that cannot
// start here is listed as skipped, with the reason.
// Usage: real_targets_bench [--cases=N] [--seed=S]
#include <stdlib.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bench/translator_bench.h"
#include "fuzz/generate/policy.h"
#include "fuzz/runner.h"

namespace atomfuzz::fuzz {
namespace {

// A shader of one store of `value`: the cheapest case a target can run.
isa::Case OneStore(int value) {
  return *isa::ParseCase(
      absl::StrCat("[dispatch]\ngroups 1, 1, 1\n[uav u0]\nkind raw\nwords 1\n"
                   "[shader]\ncs_5_0\ndcl_uav_raw u0\ndcl_thread_group 1, 1, "
                   "1\nstore_raw u0.x, l(0), l(",
                   value, ")\nret\n"),
      "one-store");
}

struct Rate {
  double cases_per_second = 0;
  int failed = 0;  // runs that were no outcome at all
};

Rate Measure(targets::Target& t, const std::vector<isa::Case>& cases) {
  Rate r;
  const double t0 = bench::Now();
  for (const isa::Case& c : cases) r.failed += !t.Run(c).ok();
  r.cases_per_second = static_cast<double>(cases.size()) / (bench::Now() - t0);
  return r;
}

int Main(uint64_t n, uint64_t seed) {
  setenv("MESA_SHADER_CACHE_DISABLE", "true", 1);
  std::printf(
      "real_targets_bench: cases/s, one case at a time (wall), %llu cases "
      "each, seed %llu\n",
      static_cast<unsigned long long>(n),
      static_cast<unsigned long long>(seed));
  std::printf("  %-15s %12s %12s %8s\n", "target", "generated", "ceiling",
              "share");
  for (const char* name :
       {"vulkan", "vulkan-ssbo", "wine-d3d11-gl", "wine-d3d11-vk"}) {
    RunOptions options;
    options.target = name;
    absl::StatusOr<std::unique_ptr<targets::Target>> t = MakeTarget(options);
    std::vector<isa::Case> ceiling;
    for (uint64_t i = 0; i < n; ++i)
      ceiling.push_back(OneStore(static_cast<int>(i + 1)));
    // The device and the runner start here, not timed.
    absl::StatusOr<isa::Outcome> probe =
        t.ok() ? (*t)->Run(OneStore(0))
               : absl::StatusOr<isa::Outcome>(t.status());
    if (!probe.ok()) {
      std::printf("  %-15s skipped: %s\n", name,
                  std::string(probe.status().message()).c_str());
      continue;
    }
    const std::vector<isa::Case> generated =
        bench::GeneratedCases("default", name, n, seed);
    const Rate g = Measure(**t, generated);
    const Rate c = Measure(**t, ceiling);
    std::printf(
        "  %-15s %12.1f %12.1f %7.0f%%%s\n", name, g.cases_per_second,
        c.cases_per_second, 100.0 * g.cases_per_second / c.cases_per_second,
        g.failed + c.failed > 0
            ? absl::StrCat("  (", g.failed + c.failed, " runs failed)").c_str()
            : "");
  }
  std::printf(
      "  (share: generated cases/s as a share of the ceiling, the one-store "
      "shader's)\n");
  return 0;
}

}  // namespace
}  // namespace atomfuzz::fuzz

int main(int argc, char** argv) {
  const std::optional<atomfuzz::bench::CasesAndSeed> args =
      atomfuzz::bench::ParseCasesAndSeed(argc, argv, "real_targets_bench");
  if (!args) return 2;
  return atomfuzz::fuzz::Main(args->cases, args->seed);
}
