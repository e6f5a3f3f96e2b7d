#include "targets/fast/fast_target.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "targets/fast/compiled.h"
#include "targets/fast/injection.h"
#include "targets/fast/spare.h"
#include "targets/fast/wave.h"

namespace atomfuzz::targets::fast {
namespace {

// Work for one worker: waves of `lanes` consecutive threads from `first`,
// run in order and sharing one TGSM (the parts of one group).
struct WavePlan {
  struct Part {
    uint64_t first = 0;
    uint32_t lanes = 0;
  };
  // At most two parts, held inline: a dispatch plans up to 2^24 waves.
  std::array<Part, 2> parts;
  uint32_t count = 0;

  WavePlan(Part a) : parts{a, Part{}}, count(1) {}
  WavePlan(Part a, Part b) : parts{a, b}, count(2) {}
  absl::Span<const Part> Parts() const {
    return absl::MakeConstSpan(parts.data(), count);
  }
};

// Waves in the order they are handed out. Normally one per group. Two
// injected bugs are timing bugs, modelled by how lanes are grouped:
// sync-no-wait runs each group as two halves, the upper half first to the
// end, so barriers do not wait; tgsm-shared runs the whole dispatch as one
// wave with one TGSM.
// Fills `plan`, reusing its storage.
void PlanWaves(const CompiledCase& cc, std::vector<WavePlan>& plan) {
  plan.clear();
  if (cc.pixel) {
    // Whole quads, 16 to a wave: a wave runs in lockstep, which is all a
    // quad's derivatives need (lanes of a quad are consecutive).
    constexpr uint64_t kWaveLanes = 64;
    const uint64_t lanes = cc.pixel_lanes.size();
    for (uint64_t first = 0; first < lanes; first += kWaveLanes) {
      plan.push_back(WavePlan(
          {first, static_cast<uint32_t>(std::min(kWaveLanes, lanes - first))}));
    }
    return;
  }
  const auto& gs = cc.group_size;
  const uint32_t per_group = gs[0] * gs[1] * gs[2];
  const uint64_t groups = uint64_t{cc.groups[0]} * cc.groups[1] * cc.groups[2];
  plan.clear();
  constexpr uint64_t kMaxSharedLanes = 1u << 16;
  if (cc.inject == Inject::kTgsmShared &&
      groups * per_group <= kMaxSharedLanes) {
    if (groups > 0)
      plan.push_back(WavePlan({0, static_cast<uint32_t>(groups * per_group)}));
    return;
  }
  plan.reserve(groups);
  for (uint64_t g = 0; g < groups; ++g) {
    const uint64_t first = g * per_group;
    if (cc.inject == Inject::kSyncNoWait && per_group > 1) {
      const uint32_t half = per_group / 2;
      plan.push_back(WavePlan({first + half, per_group - half}, {first, half}));
    } else {
      plan.push_back(WavePlan({first, per_group}));
    }
  }
}

// Trace events one run may record (64 bytes each: 256 MiB), shared out
// among the workers. Without a cap an endless loop of atomics in a full
// group records 2^20 steps x 1024 lanes = 2^29 events (32 GiB) per wave.
constexpr size_t kMaxTraceEvents = size_t{1} << 22;

// Room for the trace of a run without loops, each atomic once per thread,
// so that it is not grown from empty by doubling (a copy and an allocation
// each time); capped at 64 KiB, as atomics in untaken branches or in loops
// make it a guess.
size_t ExpectedEvents(const CompiledCase& cc) {
  constexpr uint64_t kMaxReserved = 1024;
  const auto& gs = cc.group_size;
  uint64_t events = cc.atomics;
  for (uint64_t n :
       {gs[0], gs[1], gs[2], cc.groups[0], cc.groups[1], cc.groups[2]}) {
    events = std::min(events * n, kMaxReserved);
  }
  return static_cast<size_t>(events);
}

// A compiled case and the tables that made it, with the run's plan, memory
// and traces: kept between runs so their vectors' storage serves the next
// case (the UAV words and trace events themselves go to the outcome).
struct Compilation {
  CompileTables tables;
  CompiledCase compiled;
  std::vector<WavePlan> plan;
  RunMemory memory;
  std::vector<std::vector<isa::AtomicEvent>> traces;  // per worker
};

class FastTarget : public Target {
 public:
  FastTarget(const TargetOptions& options, Inject inject)
      : options_(options), inject_(inject) {}

  absl::string_view name() const override { return "fast"; }
  bool RunsStage(isa::Stage) const override { return true; }

  absl::StatusOr<isa::Outcome> Run(const isa::Case& c) override {
    isa::Outcome outcome;
    std::unique_ptr<Compilation> compilation = spare_compilation_.Take();
    const CompiledCase* cc = &compilation->compiled;
    if (absl::Status s =
            Compile(c, inject_, compilation->tables, compilation->compiled);
        !s.ok()) {
      outcome.status = isa::RunStatus::kRejected;
      outcome.message = std::string(s.message());
      spare_compilation_.GiveBack(std::move(compilation));
      return outcome;
    }
    RunMemory& memory = compilation->memory;
    memory.uavs.clear();
    memory.counters.clear();
    for (uint32_t slot : cc->uav_slots) {
      const isa::Resource* r = c.FindResource(slot);
      memory.uavs.push_back(r->init);
      memory.counters.push_back(r->counter.value_or(0));
    }
    std::vector<WavePlan>& plan = compilation->plan;
    PlanWaves(*cc, plan);
    // glibc reads /sys on every call (about 7 us here): ask once.
    static const unsigned cores =
        std::max(1u, std::thread::hardware_concurrency());
    const size_t workers = std::min<size_t>(
        plan.size(), options_.deterministic ? 1
                     : options_.threads > 0
                         ? static_cast<size_t>(options_.threads)
                         : cores);
    std::vector<std::vector<isa::AtomicEvent>>& traces = compilation->traces;
    traces.clear();
    traces.resize(std::max<size_t>(workers, 1));
    if (options_.trace && traces.size() == 1)
      traces[0].reserve(ExpectedEvents(*cc));
    std::atomic<size_t> next{0};
    std::atomic<bool> budget_exceeded{false}, thread_over{false};
    auto work = [&](size_t worker) {
      std::unique_ptr<Wave> wave = spare_wave_.Take();
      Wave& w = *wave;
      w.cc = cc;
      w.constant_lanes = 0;  // last run's constants belong to another case
      w.memory = &memory;
      w.trace = options_.trace ? &traces[worker] : nullptr;
      w.max_trace = kMaxTraceEvents / traces.size();
      w.max_iterations = options_.max_steps_per_thread;
      for (size_t i = next.fetch_add(1); i < plan.size();
           i = next.fetch_add(1)) {
        if (budget_exceeded.load(std::memory_order_relaxed)) break;
        w.tgsm.assign(cc->tgsm_words, 0);  // undefined at group start (E-22)
        for (const WavePlan::Part& part : plan[i].Parts()) {
          w.lanes = part.lanes;
          if (!RunWave(w, part.first, options_.max_steps_per_wave)) {
            budget_exceeded = true;
            if (w.over_budget) thread_over = true;
          }
        }
      }
      spare_wave_.GiveBack(std::move(wave));
    };
    if (workers <= 1) {
      work(0);
    } else {
      std::vector<std::thread> pool;
      for (size_t k = 0; k < workers; ++k) pool.emplace_back(work, k);
      for (std::thread& t : pool) t.join();
    }
    if (budget_exceeded) {
      outcome.status = isa::RunStatus::kBudgetExceeded;
      const bool trace_full =
          std::any_of(traces.begin(), traces.end(), [&](const auto& t) {
            return t.size() > kMaxTraceEvents / traces.size();
          });
      outcome.message =
          trace_full ? absl::StrCat("the run recorded more than ",
                                    kMaxTraceEvents, " atomics")
          : thread_over
              ? absl::StrCat("a thread started more than ",
                             options_.max_steps_per_thread, " loop iterations")
              : absl::StrCat("a wave ran more than ",
                             options_.max_steps_per_wave, " instructions");
    }
    outcome.uavs.reserve(c.resources.size());
    for (const isa::Resource& r : c.resources) {  // sorted by slot
      const auto it =
          std::find(cc->uav_slots.begin(), cc->uav_slots.end(), r.slot);
      isa::UavState u;
      u.slot = r.slot;
      if (it == cc->uav_slots.end()) {
        u.words = r.init;  // bound but never declared: untouched
        u.counter = r.counter;
      } else {
        const size_t i = static_cast<size_t>(it - cc->uav_slots.begin());
        u.words = std::move(memory.uavs[i]);
        if (r.counter) u.counter = memory.counters[i];
      }
      u.defined = std::vector<bool>(u.words.size(), true);
      outcome.uavs.push_back(std::move(u));
    }
    outcome.has_trace = options_.trace;
    if (traces.size() == 1) {
      outcome.trace = std::move(traces[0]);
    } else {
      for (auto& t : traces) {
        outcome.trace.insert(outcome.trace.end(), t.begin(), t.end());
      }
    }
    // Kept for the next case only while small: a dispatch of 2^24 groups
    // plans 640 MiB, and several workers' traces may hold 256 MiB.
    if (plan.capacity() > 4096) std::vector<WavePlan>().swap(plan);
    traces.clear();
    spare_compilation_.GiveBack(std::move(compilation));
    return outcome;
  }

 private:
  // Compile and RunWave overwrite every field, so last run's storage serves.
  Spare<Compilation> spare_compilation_;
  Spare<Wave> spare_wave_;
  TargetOptions options_;
  Inject inject_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Target>> CreateFastTarget(
    const TargetOptions& options) {
  const std::string name = options.Flag(kInjectFlag);
  const std::optional<Inject> inject = InjectionFromName(name);
  if (!inject) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown injected bug '", name, "' (see --inject=list)"));
  }
  return std::make_unique<FastTarget>(options, *inject);
}

}  // namespace atomfuzz::targets::fast
