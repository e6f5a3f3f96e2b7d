// Vulkan throughput with and without batching (issue 6), measured in one
// run on the same cases: N cases from the fuzz generator (default policy,
// fixed seed) run on the `vulkan` target one by one (Target::Run), then in
// batches (Target::RunBatch on K cases of one group size at a time), wall
// time each, since lavapipe compiles and runs in its own threads. The
// oracle's judge then rules on every outcome of both runs (not timed), so a
// batch that changed a case's behaviour would show as a divergence only one
// side has. Skips (exit 0) without a Vulkan device.
// Usage: vulkan_bench [--cases=N] [--batch=K] [--seed=S] [--in_process]
//   --in_process: the target in this process (no fork server), to see the
//   device's own share of the time.
#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"
#include "fuzz/case_source.h"
#include "fuzz/policy.h"
#include "oracle/judge.h"
#include "targets/case_batch.h"
#include "targets/registry.h"
#include "targets/trace_instrumentation.h"
#include "targets/vulkan/vulkan_target.h"

namespace atomfuzz::fuzz {
namespace {

struct Args {
  uint64_t cases = 400;
  uint64_t batch = 64;
  uint64_t seed = 1;
  bool in_process = false;
};

bool ParseArgs(int argc, char** argv, Args& a) {
  for (int i = 1; i < argc; ++i) {
    absl::string_view arg = argv[i];
    if (absl::ConsumePrefix(&arg, "--cases=")) {
      if (!absl::SimpleAtoi(arg, &a.cases) || a.cases == 0) return false;
    } else if (absl::ConsumePrefix(&arg, "--batch=")) {
      if (!absl::SimpleAtoi(arg, &a.batch) || a.batch == 0) return false;
    } else if (absl::ConsumePrefix(&arg, "--seed=")) {
      if (!absl::SimpleAtoi(arg, &a.seed)) return false;
    } else if (arg == "--in_process") {
      a.in_process = true;
    } else {
      return false;
    }
  }
  return true;
}

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

using Results = std::vector<absl::StatusOr<isa::Outcome>>;

// "ok 380, rejected 12, ...; judge: allowed 370, unknown 5, divergence 5".
std::string Summary(const std::vector<isa::Case>& cases, const Results& results) {
  std::map<std::string, int> statuses;
  int allowed = 0, unknown = 0, divergence = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    if (!results[i].ok()) {
      ++statuses["error"];
      continue;
    }
    ++statuses[std::string(isa::RunStatusName(results[i]->status))];
    oracle::JudgeOptions judge;
    judge.search_budget = 1u << 16;
    judge.interpret.max_steps_per_thread = 1u << 10;
    absl::StatusOr<oracle::Verdict> v = oracle::Judge(cases[i], *results[i], judge);
    if (!v.ok()) continue;
    allowed += v->kind == oracle::Verdict::Kind::kAllowed;
    unknown += v->kind == oracle::Verdict::Kind::kUnknown;
    divergence += v->kind == oracle::Verdict::Kind::kDivergence;
  }
  std::string out;
  for (const auto& [name, n] : statuses) absl::StrAppend(&out, name, " ", n, ", ");
  absl::StrAppend(&out, "judged: allowed ", allowed, ", unknown ", unknown, ", divergence ",
                  divergence);
  return out;
}

// How RunBatch packs the cases on lavapipe in texel mode (64 descriptors):
// dispatches and cases in them, for the report.
std::string Packing(const std::vector<isa::Case>& cases, const std::vector<size_t>& order,
                    uint64_t chunk) {
  targets::BatchLimits limits;
  limits.max_descriptors = 64;
  size_t dispatches = 0, batched = 0;
  for (size_t first = 0; first < order.size(); first += chunk) {
    std::vector<targets::InstrumentedCase> ics;
    std::map<targets::BatchKey, std::vector<const isa::Case*>> by_key;
    for (size_t k = first; k < std::min<size_t>(order.size(), first + chunk); ++k) {
      absl::StatusOr<targets::InstrumentedCase> ic = targets::InstrumentForTrace(cases[order[k]]);
      if (ic.ok()) ics.push_back(*std::move(ic));
    }
    for (const auto& ic : ics) {
      if (auto key = targets::BatchKeyOf(ic.instrumented)) by_key[*key].push_back(&ic.instrumented);
    }
    for (const auto& [key, members] : by_key) {
      targets::BatchBuilder b(limits);
      for (const isa::Case* c : members) {
        if (b.Add(*c)) continue;
        ++dispatches;
        batched += b.size();
        b = targets::BatchBuilder(limits);
        b.Add(*c);
      }
      ++dispatches;
      batched += b.size();
    }
  }
  return absl::StrFormat("%d dispatches, %.1f cases each on average", dispatches,
                         dispatches ? static_cast<double>(batched) / dispatches : 0.0);
}

int Main(const Args& a) {
  // Mesa's disk cache would hide the compile (the cost batching shares).
  setenv("MESA_SHADER_CACHE_DISABLE", "true", 1);
  const Policy policy = *PolicyByName("default");
  CampaignCorpus empty("/nonexistent");
  std::vector<isa::Case> cases;
  for (uint64_t i = 0; i < a.cases; ++i) {
    CaseOrigin origin;
    cases.push_back(NextCase(a.seed, i, 0, empty, policy, origin));
  }
  targets::TargetOptions options;
  absl::StatusOr<std::unique_ptr<targets::Target>> target =
      a.in_process ? targets::vulkan::CreateVulkanTarget(options, targets::vulkan::BufferUavMode::kTexel)
                   : targets::CreateTarget("vulkan", options);
  if (!target.ok()) {
    std::printf("vulkan_bench: skipped, no vulkan target: %s\n", target.status().ToString().c_str());
    return 0;
  }
  // Opens the device (not timed); no device is a skip, not a failure.
  if (absl::StatusOr<isa::Outcome> probe = (*target)->Run(cases[0]); !probe.ok()) {
    std::printf("vulkan_bench: skipped, no Vulkan device: %s\n", probe.status().ToString().c_str());
    return 0;
  }
  const double t0 = Now();
  Results alone;
  for (const isa::Case& c : cases) alone.push_back((*target)->Run(c));
  const double t1 = Now();
  // Batches of one group size at a time, as a campaign would collect them.
  std::vector<size_t> order(cases.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    return targets::BatchKeyOf(cases[x]) < targets::BatchKeyOf(cases[y]);
  });
  Results batched(cases.size(), absl::InternalError("not run"));
  const double t2 = Now();
  for (size_t first = 0; first < order.size(); first += a.batch) {
    std::vector<isa::Case> chunk;
    for (size_t k = first; k < std::min<size_t>(order.size(), first + a.batch); ++k) {
      chunk.push_back(cases[order[k]]);
    }
    Results r = (*target)->RunBatch(chunk);
    for (size_t k = 0; k < r.size(); ++k) batched[order[first + k]] = std::move(r[k]);
  }
  const double t3 = Now();
  const double n = static_cast<double>(cases.size());
  std::printf("vulkan_bench: %zu cases (default policy, seed %llu), target %s%s\n", cases.size(),
              static_cast<unsigned long long>(a.seed), std::string((*target)->name()).c_str(),
              a.in_process ? " in process" : " (fork server)");
  std::printf("  batches: RunBatch on %llu cases of one group size at a time: %s\n",
              static_cast<unsigned long long>(a.batch), Packing(cases, order, a.batch).c_str());
  std::printf("  unbatched: %8.1f cases/s (%.2f s)\n", n / (t1 - t0), t1 - t0);
  std::printf("  batched:   %8.1f cases/s (%.2f s)\n", n / (t3 - t2), t3 - t2);
  std::printf("  ratio:     %8.1fx\n", (t1 - t0) / (t3 - t2));
  std::printf("  unbatched outcomes: %s\n", Summary(cases, alone).c_str());
  std::printf("  batched outcomes:   %s\n", Summary(cases, batched).c_str());
  return 0;
}

}  // namespace
}  // namespace atomfuzz::fuzz

int main(int argc, char** argv) {
  atomfuzz::fuzz::Args a;
  if (!atomfuzz::fuzz::ParseArgs(argc, argv, a)) {
    std::fprintf(stderr, "usage: vulkan_bench [--cases=N] [--batch=K] [--seed=S] [--in_process]\n");
    return 2;
  }
  return atomfuzz::fuzz::Main(a);
}
