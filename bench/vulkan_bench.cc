// Vulkan throughput with and without batching (issue 6), measured in one
// run on the same cases: N cases from the fuzz generator (a policy, fixed
// seed) run on the `vulkan` target one by one (Target::Run), then in
// batches (Target::RunBatch on K cases of one group size at a time), wall
// time each, since lavapipe compiles and runs in its own threads. The
// oracle's judge then rules on every outcome of both runs (not timed), so a
// batch that changed a case's behaviour would show as a divergence only one
// side has. Last, where the time goes: single pipelines timed in this
// process. Skips (exit 0) without a Vulkan device.
// Usage: vulkan_bench [--cases=N] [--batch=K] [--seed=S] [--policy=NAME]
//                     [--in_process]
//   --in_process: the target in this process (no fork server).
#include <stdlib.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/strip.h"
#include "bench/cpu_seconds.h"
#include "fuzz/campaign/case_source.h"
#include "fuzz/generate/policy.h"
#include "isa/dxbc.h"
#include "oracle/judge.h"
#include "targets/case_batch.h"
#include "targets/registry.h"
#include "targets/trace_instrumentation.h"
#include "targets/vulkan/vk_context.h"
#include "targets/vulkan/vk_dispatch.h"
#include "targets/vulkan/vulkan_target.h"

namespace atomfuzz::fuzz {
namespace {

namespace vk = targets::vulkan;

struct Args {
  uint64_t cases = 400;
  uint64_t batch = 64;
  uint64_t seed = 1;
  std::string policy = "default";
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
    } else if (absl::ConsumePrefix(&arg, "--policy=")) {
      a.policy = std::string(arg);
    } else if (arg == "--in_process") {
      a.in_process = true;
    } else {
      return false;
    }
  }
  return true;
}

// With --in_process, lavapipe's threads are this process's too.
double CpuNow() { return bench::CpuSeconds(); }

double Now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

using Results = std::vector<absl::StatusOr<isa::Outcome>>;

// "ok 116, rejected 84; judged: allowed 115, unknown 0, divergence 85"
// (vkd3d 1.2 refuses many generated cases, e.g. sync_ugroup alone: a
// divergence of kind `rejected`).
std::string Summary(const std::vector<isa::Case>& cases,
                    const Results& results) {
  std::map<std::string, int> statuses;
  int allowed = 0, unknown = 0, divergence = 0;
  oracle::JudgeOptions judge;
  judge.search_budget = 1u << 16;
  judge.interpret.max_steps_per_thread = 1u << 10;
  for (size_t i = 0; i < cases.size(); ++i) {
    if (!results[i].ok()) {
      ++statuses["error"];
      continue;
    }
    ++statuses[std::string(isa::RunStatusName(results[i]->status))];
    absl::StatusOr<oracle::Verdict> v =
        oracle::Judge(cases[i], *results[i], judge);
    if (!v.ok()) continue;
    allowed += v->kind == oracle::Verdict::Kind::kAllowed;
    unknown += v->kind == oracle::Verdict::Kind::kUnknown;
    divergence += v->kind == oracle::Verdict::Kind::kDivergence;
  }
  std::string out;
  for (const auto& [name, n] : statuses)
    absl::StrAppend(&out, name, " ", n, ", ");
  absl::StrAppend(&out, "judged: allowed ", allowed, ", unknown ", unknown,
                  ", divergence ", divergence);
  return out;
}

// `n` copies of `line` (with %d the word's byte address) on a raw u0.
isa::Case Straight(int n, absl::string_view line) {
  std::string body;
  for (int i = 0; i < n; ++i) {
    body += absl::StrReplaceAll(line, {{"%d", absl::StrCat(4 * (i % 8))}});
  }
  return *isa::ParseCase(
      absl::StrCat("[dispatch]\ngroups 2, 1, 1\n[uav u0]\nkind raw\nwords "
                   "8\n[shader]\ncs_5_0\n"
                   "dcl_uav_raw u0\ndcl_temps 1\ndcl_thread_group 4, 1, 1\nmov "
                   "r0.xy, l(0, 0, 0, 0)\n",
                   body, "store_raw u0.x, l(0), r0.x\nret\n"));
}

// Milliseconds of one pipeline (vkd3d, JIT, dispatch), the mean of 3; -1
// if it fails.
double PipelineMs(vk::VkContext& device, const isa::Case& c) {
  std::vector<vk::UavBinding> bindings;
  for (const isa::Resource& r : c.resources) {
    const bool buffer =
        r.kind != isa::ResourceKind::kTyped || r.dim == isa::Dim::kBuffer;
    bindings.push_back({r.slot, buffer, r.counter.has_value()});
  }
  const double t0 = Now();
  for (int k = 0; k < 3; ++k) {
    const vk::SpirvModule m = vk::CompileDxbcToSpirv(
        *isa::EncodeDxbc(c.shader), bindings, vk::BufferUavMode::kTexel);
    if (!m.ok ||
        !vk::Dispatch(device, c, m.words, bindings, vk::BufferUavMode::kTexel)
             .ok()) {
      return -1;
    }
  }
  return (Now() - t0) * 1e3 / 3;
}

// Where a case's time goes on this device: the shader's fixed cost, the
// cost per atomic without and with the trace log, and what batching buys
// cases with one atomic. `unbatched_s` and `dispatched`: the unbatched
// run's time and how many of its cases reached a dispatch, for the most
// that batching can buy (every dispatched case's fixed cost saved).
void Breakdown(double unbatched_s, size_t dispatched) {
  absl::StatusOr<vk::VkContext*> device = vk::GetVkContext("");
  if (!device.ok()) return;
  auto traced = [](const isa::Case& c) {
    return targets::InstrumentForTrace(c)->instrumented;
  };
  const std::string atomic = "imm_atomic_iadd r0.y, u0, l(%d), l(1)\n";
  std::printf(
      "where the time goes (one pipeline each: vkd3d, LLVM JIT, dispatch; mean "
      "of 3):\n");
  const double fixed_ms = PipelineMs(**device, Straight(0, ""));
  std::printf("  a shader of one store:    %6.1f ms\n", fixed_ms);
  for (int n : {4, 16, 64}) {
    const isa::Case c = Straight(n, atomic);
    std::printf(
        "  %2d imm_atomic_iadd:       %6.1f ms plain, %6.1f ms with the trace "
        "log\n",
        n, PipelineMs(**device, c), PipelineMs(**device, traced(c)));
  }
  std::printf("  64 iadd (ALU):            %6.1f ms\n",
              PipelineMs(**device, Straight(64, "iadd r0.x, r0.x, r0.y\n")));
  std::unique_ptr<targets::Target> target =
      *vk::CreateVulkanTarget({}, vk::BufferUavMode::kTexel);
  const std::vector<isa::Case> small(16, Straight(1, atomic));
  const double t0 = Now();
  for (const isa::Case& c : small) (void)target->Run(c);
  const double t1 = Now();
  (void)target->RunBatch(small);
  const double t2 = Now();
  std::printf(
      "  16 cases of one atomic:   %6.1f ms each alone, %.1f ms each in one "
      "batch\n",
      (t1 - t0) * 1e3 / 16, (t2 - t1) * 1e3 / 16);
  const double saved_s = std::min(
      unbatched_s * 0.99, fixed_ms * 1e-3 * static_cast<double>(dispatched));
  std::printf(
      "  the most batching can buy here: %.2fx (the unbatched %.2f s less one "
      "store "
      "shader's cost for each of its %zu dispatched cases)\n",
      unbatched_s / (unbatched_s - saved_s), unbatched_s, dispatched);
}

int Main(const Args& a) {
  // Mesa's disk cache would hide the compile (the cost batching shares).
  setenv("MESA_SHADER_CACHE_DISABLE", "true", 1);
  absl::StatusOr<Policy> policy = PolicyByName(a.policy);
  if (!policy.ok()) {
    std::fprintf(stderr, "vulkan_bench: %s\n",
                 policy.status().ToString().c_str());
    return 2;
  }
  CampaignCorpus empty("/nonexistent");
  std::vector<isa::Case> cases;
  for (uint64_t i = 0; i < a.cases; ++i) {
    CaseOrigin origin;
    cases.push_back(NextCase(a.seed, i, 0, empty, *policy, origin));
  }
  targets::TargetOptions options;
  absl::StatusOr<std::unique_ptr<targets::Target>> target =
      a.in_process ? vk::CreateVulkanTarget(options, vk::BufferUavMode::kTexel)
                   : targets::CreateTarget("vulkan", options);
  // The device opens here (not timed); no device is a skip, not a failure.
  absl::StatusOr<isa::Outcome> probe =
      target.ok() ? (*target)->Run(cases[0])
                  : absl::StatusOr<isa::Outcome>(target.status());
  if (!probe.ok()) {
    std::printf("vulkan_bench: skipped, no Vulkan device: %s\n",
                probe.status().ToString().c_str());
    return 0;
  }
  const double c0 = CpuNow(), t0 = Now();
  Results alone;
  for (const isa::Case& c : cases) alone.push_back((*target)->Run(c));
  const double t1 = Now(), c1 = CpuNow();
  // Batches of one group size at a time, as a campaign would collect them.
  std::vector<size_t> order(cases.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    return targets::BatchKeyOf(cases[x]) < targets::BatchKeyOf(cases[y]);
  });
  Results batched(cases.size(), absl::InternalError("not run"));
  const double c2 = CpuNow(), t2 = Now();
  for (size_t first = 0; first < order.size(); first += a.batch) {
    std::vector<isa::Case> chunk;
    for (size_t k = first; k < std::min<size_t>(order.size(), first + a.batch);
         ++k) {
      chunk.push_back(cases[order[k]]);
    }
    Results r = (*target)->RunBatch(chunk);
    for (size_t k = 0; k < r.size(); ++k)
      batched[order[first + k]] = std::move(r[k]);
  }
  const double t3 = Now(), c3 = CpuNow();
  const double n = static_cast<double>(cases.size());
  const targets::BatchLimits limits = vk::VulkanBatchLimits(64);
  std::printf("vulkan_bench: %zu cases (policy %s, seed %llu) on %s%s\n",
              cases.size(), a.policy.c_str(),
              static_cast<unsigned long long>(a.seed),
              std::string((*target)->name()).c_str(),
              a.in_process ? " in process" : "");
  std::printf(
      "  batches: RunBatch on %llu cases of one group size at a time; one "
      "shader holds "
      "at most %u memory instructions and %u barriers\n",
      static_cast<unsigned long long>(a.batch), limits.max_memory_ops,
      limits.max_barriers);
  std::printf("  unbatched: %7.1f cases/s (%.2f s)\n", n / (t1 - t0), t1 - t0);
  std::printf("  batched:   %7.1f cases/s (%.2f s)\n", n / (t3 - t2), t3 - t2);
  std::printf("  ratio:     %7.2fx\n", (t1 - t0) / (t3 - t2));
  if (a.in_process) {
    std::printf(
        "  per CPU second (lavapipe's threads included): %.1f unbatched, %.1f "
        "batched "
        "cases, %.2fx\n",
        n / (c1 - c0), n / (c3 - c2), (c1 - c0) / (c3 - c2));
  }
  std::printf("  unbatched outcomes: %s\n", Summary(cases, alone).c_str());
  std::printf("  batched outcomes:   %s\n", Summary(cases, batched).c_str());
  target->reset();  // the fork server's child goes before this process opens a
                    // device
  const size_t dispatched = static_cast<size_t>(std::count_if(
      alone.begin(), alone.end(), [](const absl::StatusOr<isa::Outcome>& r) {
        return r.ok() && r->status != isa::RunStatus::kRejected &&
               r->status != isa::RunStatus::kInvalidCode;
      }));
  Breakdown(t1 - t0, dispatched);
  return 0;
}

}  // namespace
}  // namespace atomfuzz::fuzz

int main(int argc, char** argv) {
  atomfuzz::fuzz::Args a;
  if (!atomfuzz::fuzz::ParseArgs(argc, argv, a)) {
    std::fprintf(stderr,
                 "usage: vulkan_bench [--cases=N] [--batch=K] [--seed=S] "
                 "[--policy=NAME] "
                 "[--in_process]\n");
    return 2;
  }
  return atomfuzz::fuzz::Main(a);
}
