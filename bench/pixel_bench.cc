// Cases per second of pixel cases beside compute cases, on the same
// targets in one run (issue 22): N cases of the `pixel` policy and N of
// the `default` policy, each generated from the same seed as a campaign
// does, run one at a time (wall time, as a campaign worker runs them) on
// fast, vulkan, vulkan-demote and the two Wine targets (which refuse
// 4-sample draws: counted as not ok). The ratio is pixel cases/s over compute
// cases/s on the same target. A target that cannot start here is listed
// as skipped, with the reason. Mesa's shader cache is off.
// Usage: pixel_bench [--cases=N] [--seed=S]
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

struct Rate {
  double cases_per_second = 0;
  int failed = 0;   // runs that were no outcome at all
  int refused = 0;  // outcomes other than ok (rejected, over budget, ...)
};

// The list again and again until a second has passed (fast runs a list
// of small cases in milliseconds, too short to time); a real translator
// takes longer than that for one pass, so it runs each case once.
Rate Measure(targets::Target& t, const std::vector<isa::Case>& cases) {
  Rate r;
  const double t0 = bench::Now();
  uint64_t runs = 0;
  do {
    for (const isa::Case& c : cases) {
      absl::StatusOr<isa::Outcome> o = t.Run(c);
      r.failed += !o.ok();
      r.refused += o.ok() && o->status != isa::RunStatus::kOk;
    }
    runs += cases.size();
  } while (bench::Now() - t0 < 1.0);
  r.cases_per_second = static_cast<double>(runs) / (bench::Now() - t0);
  return r;
}

int Main(uint64_t n, uint64_t seed) {
  setenv("MESA_SHADER_CACHE_DISABLE", "true", 1);
  if (!PolicyByName("pixel").ok() || !PolicyByName("default").ok()) {
    std::fprintf(stderr, "pixel_bench: no `pixel` or `default` policy\n");
    return 2;
  }
  std::printf(
      "pixel_bench: cases/s, one case at a time (wall), %llu cases of each "
      "stage, seed %llu\n",
      static_cast<unsigned long long>(n),
      static_cast<unsigned long long>(seed));
  std::printf("  %-15s %14s %14s %8s\n", "target", "compute (cs)", "pixel (ps)",
              "ps/cs");
  for (const char* name :
       {"fast", "vulkan", "vulkan-demote", "wine-d3d11-gl", "wine-d3d11-vk"}) {
    RunOptions options;
    options.target = name;
    absl::StatusOr<std::unique_ptr<targets::Target>> t = MakeTarget(options);
    if (!t.ok()) {
      std::printf("  %-15s skipped: %s\n", name,
                  std::string(t.status().message()).c_str());
      continue;
    }
    const std::vector<isa::Case> compute =
        bench::GeneratedCases("default", name, n, seed);
    const std::vector<isa::Case> pixel =
        bench::GeneratedCases("pixel", name, n, seed);
    // The device and the runner start here, not timed.
    if (absl::StatusOr<isa::Outcome> probe = (*t)->Run(compute.front());
        !probe.ok()) {
      std::printf("  %-15s skipped: %s\n", name,
                  std::string(probe.status().message()).c_str());
      continue;
    }
    const Rate cs = Measure(**t, compute);
    const Rate ps = Measure(**t, pixel);
    std::printf("  %-15s %14.1f %14.1f %8.2f%s\n", name, cs.cases_per_second,
                ps.cases_per_second, ps.cases_per_second / cs.cases_per_second,
                cs.failed + ps.failed + cs.refused + ps.refused > 0
                    ? absl::StrCat("  (", cs.failed + ps.failed,
                                   " runs failed; not ok: ", cs.refused,
                                   " cs, ", ps.refused, " ps)")
                          .c_str()
                    : "");
  }
  return 0;
}

}  // namespace
}  // namespace atomfuzz::fuzz

int main(int argc, char** argv) {
  const std::optional<atomfuzz::bench::CasesAndSeed> args =
      atomfuzz::bench::ParseCasesAndSeed(argc, argv, "pixel_bench");
  if (!args) return 2;
  return atomfuzz::fuzz::Main(args->cases, args->seed);
}
