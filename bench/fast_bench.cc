// The fast executor against the reference interpreter and against bare
// hardware atomics, in one run on inputs made once outside the timed loops:
//   1. speedup fast/oracle on 64 groups x 256 threads, one worker, trace off
//      (ALU-heavy; atomics on one word; atomics spread over words), plus the
//      fast target with its trace on, as the oracle always traces;
//   2. latency of a small case: 64 threads, 16 instructions, compile + run
//      (Target::Run does both), deterministic, trace off;
//   3. atomic throughput of all-atomics dispatches (1024 x 256 threads, 16
//      atomics each) on all cores, as a fraction of a bare loop doing the
//      same std::atomic operations on the same words in the same order with
//      as many std::threads (spawned per run, as the target does);
//   4. scaling of big dispatches from 1 worker to all cores.
// Every benchmark reports real time (workers run off the main thread) and
// items/s; a reporter records each one's real time per run, and the summary
// after the table computes the ratios from those same runs.
//
//   build/bench/fast_bench [--benchmark_filter=REGEX]
//   [--benchmark_repetitions=N]
//
// By default each benchmark runs 3 times, interleaved at random with the
// others (a shared machine's noise then falls on both sides of a ratio), and
// the summary uses each one's median.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bench/bench_cases.h"
#include "benchmark/benchmark.h"
#include "isa/case_file.h"
#include "isa/outcome.h"
#include "oracle/interpreter.h"
#include "targets/registry.h"
#include "targets/target.h"

namespace atomfuzz {
namespace {

constexpr int kGroupSize = 256;
constexpr uint32_t kWords = 65536;

using bench::Instructions;
using bench::MakeCase;
using bench::Repeat;

int64_t Threads(const isa::Case& c) {
  int64_t n = int64_t{c.groups[0]} * c.groups[1] * c.groups[2];
  for (const auto& i : c.shader.instructions) {
    if (i.op == isa::Op::kDclThreadGroup) {
      n *= int64_t{i.operands[0].index} * i.operands[1].index *
           i.operands[2].index;
    }
  }
  return n;
}

// Lane instructions of a straight-line case.
int64_t LaneInstructions(const isa::Case& c) {
  return Threads(c) * Instructions(c);
}

// ---------------------------------------------------------------- workloads

const std::string kAluBody =
    "mov r0.x, vThreadID.x\n" +
    Repeat(
        "imad r0.x, r0.x, l(3), l(7)\nxor r0.y, r0.x, l(0x55)\n"
        "ushr r0.z, r0.y, l(3)\niadd r0.x, r0.x, r0.z\n",
        16) +
    "ishl r1.x, vThreadID.x, l(2)\nstore_raw u0.x, r1.x, r0.x\n";
const std::string kAtomicOneWordBody =
    Repeat("imm_atomic_iadd r0.x, u0, l(0), l(1)\n", 16);
const std::string kAtomicSpreadBody =
    "ishl r1.x, vThreadID.x, l(2)\n" +
    Repeat("imm_atomic_iadd r0.x, u0, r1.x, l(1)\natomic_or u0, r1.x, l(2)\n",
           8);

// 16 instructions (ret included): ALU, a store, a load, two atomics.
const std::string kSmallBody =
    "ishl r1.x, vThreadID.x, l(2)\n"
    "mov r0.x, vThreadID.x\n"
    "imad r0.x, r0.x, l(3), l(7)\n"
    "xor r0.y, r0.x, l(0x55)\n"
    "ushr r0.z, r0.y, l(3)\n"
    "iadd r0.x, r0.x, r0.z\n"
    "imad r0.x, r0.x, l(5), l(1)\n"
    "and r0.w, r0.x, l(0xff)\n"
    "ult r2.x, r0.w, l(128)\n"
    "movc r0.y, r2.x, r0.x, r0.w\n"
    "store_raw u0.x, r1.x, r0.y\n"
    "ld_raw r2.y, r1.x, u0.xxxx\n"
    "imm_atomic_iadd r2.z, u0, l(256), l(1)\n"
    "atomic_or u0, l(260), r2.y\n"
    "iadd r2.w, r2.y, r2.z\n";

// All-atomics dispatches: 16 atomics per thread on word `t & mask` of
// thread t. Ops: all atomic_or, or imm_atomic_iadd / atomic_or alternating.
struct AtomicsWorkload {
  std::string name;
  uint32_t mask;  // word of thread t: t & mask
  bool mixed;     // imm_atomic_iadd (result kept) / atomic_or alternating
};
constexpr int kAtomicGroups = 1024;
constexpr int kAtomicsPerThread = 16;
constexpr int64_t kAtomicOps =
    int64_t{kAtomicGroups} * kGroupSize * kAtomicsPerThread;

std::string AtomicsBody(const AtomicsWorkload& w) {
  std::string body = absl::StrCat("and r1.x, vThreadID.x, l(", w.mask,
                                  ")\nishl r1.x, r1.x, l(2)\n");
  for (int k = 0; k < kAtomicsPerThread; ++k) {
    if (w.mixed && k % 2 == 0) {
      body += "imm_atomic_iadd r0.x, u0, r1.x, l(1)\n";
    } else {
      body += absl::StrCat("atomic_or u0, r1.x, l(", 1u << k, ")\n");
    }
  }
  return body;
}

// The same operations with bare std::atomic, group by group as the fast
// target hands groups out (a shared counter), instruction by instruction over
// the group's lanes (its wave order), on `workers` std::threads spawned here.
void BareAtomics(const AtomicsWorkload& w, std::atomic<uint32_t>* words,
                 unsigned workers) {
  std::atomic<uint32_t> next{0};
  auto work = [&] {
    uint32_t dst[kGroupSize];
    for (uint32_t g = next.fetch_add(1); g < kAtomicGroups;
         g = next.fetch_add(1)) {
      const uint32_t first = g * kGroupSize;
      for (int k = 0; k < kAtomicsPerThread; ++k) {
        if (w.mixed && k % 2 == 0) {
          for (uint32_t l = 0; l < kGroupSize; ++l) {
            dst[l] = words[(first + l) & w.mask].fetch_add(
                1, std::memory_order_relaxed);
          }
          benchmark::DoNotOptimize(dst);
        } else {
          const uint32_t bit = 1u << k;
          for (uint32_t l = 0; l < kGroupSize; ++l) {
            words[(first + l) & w.mask].fetch_or(bit,
                                                 std::memory_order_relaxed);
          }
        }
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned i = 0; i < workers; ++i) pool.emplace_back(work);
  for (std::thread& t : pool) t.join();
}

// ---------------------------------------------------------------- helpers

std::unique_ptr<targets::Target> Fast(const targets::TargetOptions& o) {
  auto t = targets::CreateTarget("fast", o);
  if (!t.ok()) {
    std::fprintf(stderr, "fast_bench: %s\n",
                 std::string(t.status().message()).c_str());
    std::abort();
  }
  return *std::move(t);
}

targets::TargetOptions Options(bool trace, int threads,
                               bool deterministic = false) {
  targets::TargetOptions o;
  o.trace = trace;
  o.threads = threads;
  o.deterministic = deterministic;
  return o;
}

void RunFast(benchmark::State& state, targets::Target& t, const isa::Case& c,
             int64_t items) {
  for (auto _ : state) {
    auto o = t.Run(c);
    if (!o.ok() || o->status != isa::RunStatus::kOk) {
      state.SkipWithError("fast target did not complete the case");
      break;
    }
    benchmark::DoNotOptimize(o);
  }
  state.SetItemsProcessed(state.iterations() * items);
}

void RunOracle(benchmark::State& state, const isa::Case& c, int64_t items) {
  for (auto _ : state) {
    auto o = oracle::Interpret(c);
    if (!o.ok() || o->status != isa::RunStatus::kOk) {
      state.SkipWithError("oracle did not complete the case");
      break;
    }
    benchmark::DoNotOptimize(o);
  }
  state.SetItemsProcessed(state.iterations() * items);
}

// Checks, once and untimed, that the fast target with `workers` completes
// `c` and leaves the memory `expected` leaves (the oracle's, or the bare
// loop's).
bool SameMemory(const std::string& what, const isa::Case& c, int workers,
                const std::vector<uint32_t>& expected) {
  auto t = Fast(Options(false, workers));
  auto o = t->Run(c);
  const bool ok = o.ok() && o->status == isa::RunStatus::kOk &&
                  !o->uavs.empty() && o->uavs[0].words == expected;
  std::printf("check %-44s %s\n", what.c_str(),
              ok ? "fast agrees" : "MISMATCH");
  return ok;
}

std::vector<uint32_t> OracleMemory(const isa::Case& c) {
  auto o = oracle::Interpret(c);
  if (!o.ok() || o->status != isa::RunStatus::kOk || o->uavs.empty()) return {};
  return o->uavs[0].words;
}

// Seconds per run of each benchmark, by registered name, as reported: the
// median aggregate when there are repetitions, else the median single run.
// Real time, and CPU time (of the process where the benchmark measures the
// process: workers run on their own threads).
class Recorder : public benchmark::ConsoleReporter {
 public:
  explicit Recorder(OutputOptions o) : ConsoleReporter(o) {}
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs) {
      if (r.error_occurred || r.iterations == 0) continue;
      const double unit = benchmark::GetTimeUnitMultiplier(r.time_unit);
      const Time t = {r.GetAdjustedRealTime() / unit,
                      r.GetAdjustedCPUTime() / unit};
      Entry& e = times_[r.run_name.function_name];
      if (r.run_type == Run::RT_Iteration) e.runs.push_back(t);
      if (r.run_type == Run::RT_Aggregate && r.aggregate_name == "median")
        e.median = t;
    }
    ConsoleReporter::ReportRuns(runs);
  }
  // 0 if it did not run (filtered out or failed).
  double Real(const std::string& name) const { return Get(name).real; }
  double Cpu(const std::string& name) const { return Get(name).cpu; }

 private:
  struct Time {
    double real = 0, cpu = 0;
  };
  struct Entry {
    std::vector<Time> runs;
    Time median;
  };
  Time Get(const std::string& name) const {
    auto it = times_.find(name);
    if (it == times_.end()) return {};
    if (it->second.median.real > 0) return it->second.median;
    std::vector<Time> v = it->second.runs;
    if (v.empty()) return {};
    auto median = [&](double Time::*f) {
      std::vector<double> x;
      for (const Time& t : v) x.push_back(t.*f);
      std::sort(x.begin(), x.end());
      const size_t n = x.size();
      return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
    };
    return {median(&Time::real), median(&Time::cpu)};
  }
  std::map<std::string, Entry> times_;
};

std::string Verdict(bool met) { return met ? "met" : "MISSED"; }

}  // namespace
}  // namespace atomfuzz

int main(int argc, char** argv) {
  using namespace atomfuzz;
  // Defaults for a noisy shared machine, each overridden by passing it:
  // repetitions interleaved at random between benchmarks, medians shown.
  std::vector<char*> args(argv, argv + argc);
  auto given = [&](const std::string& flag) {
    return std::any_of(args.begin() + 1, args.end(), [&](const char* a) {
      return std::string(a).rfind(flag, 0) == 0;
    });
  };
  std::string defaults[] = {"--benchmark_repetitions=3",
                            "--benchmark_enable_random_interleaving=true",
                            "--benchmark_display_aggregates_only=true"};
  for (std::string& d : defaults) {
    if (!given(d.substr(0, d.find('=')))) args.push_back(d.data());
  }
  int args_count = static_cast<int>(args.size());
  args.push_back(nullptr);
  benchmark::Initialize(&args_count, args.data());
  argc = args_count;
  argv = args.data();
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  const int cores =
      static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));

  // Inputs, made once.
  struct Pair {
    std::string name, label;
    isa::Case c;
  };
  const std::vector<Pair> speedup = {
      {"alu", "ALU", MakeCase(64, kGroupSize, kWords, 4, kAluBody)},
      {"atomic_one_word", "atomics on one word",
       MakeCase(64, kGroupSize, kWords, 4, kAtomicOneWordBody)},
      {"atomic_spread", "atomics spread",
       MakeCase(64, kGroupSize, kWords, 4, kAtomicSpreadBody)},
  };
  const isa::Case small = MakeCase(1, 64, 128, 3, kSmallBody);
  if (Instructions(small) != 16) std::abort();
  const std::vector<AtomicsWorkload> atomics = {
      {"or_spread", kWords - 1, false},
      {"or_4_words", 3, false},
      {"iadd_or_spread", kWords - 1, true},
      {"iadd_or_4_words", 3, true},
  };
  std::vector<isa::Case> atomic_cases;
  for (const auto& w : atomics) {
    atomic_cases.push_back(
        MakeCase(kAtomicGroups, kGroupSize, kWords, 2, AtomicsBody(w)));
  }
  const std::vector<Pair> scaling = {
      {"alu", "ALU", MakeCase(1024, kGroupSize, kWords, 4, kAluBody)},
      {"atomic_spread", "atomics spread",
       MakeCase(1024, kGroupSize, kWords, 4, kAtomicSpreadBody)},
  };

  // Untimed checks: the fast target runs these cases to the same memory.
  // These final memories do not depend on the order of the atomics, so the
  // fast target runs them on all cores; iadd and or mixed on one word do, so
  // the comparison with the bare loop runs both on one worker (same order).
  bool agree = true;
  for (const Pair& p : speedup)
    agree &= SameMemory(p.name + " (vs oracle)", p.c, 0, OracleMemory(p.c));
  agree &= SameMemory("small (vs oracle)", small, 0, OracleMemory(small));
  for (size_t i = 0; i < atomics.size(); ++i) {
    auto words = std::make_unique<std::atomic<uint32_t>[]>(kWords);
    BareAtomics(atomics[i], words.get(), 1);
    std::vector<uint32_t> expected(kWords);
    for (uint32_t k = 0; k < kWords; ++k) expected[k] = words[k].load();
    agree &= SameMemory(atomics[i].name + " (vs bare loop)", atomic_cases[i], 1,
                        expected);
  }

  // Targets and bare memory, made once (Run is reentrant per call).
  auto fast1 = Fast(Options(false, 1));
  auto fast1_trace = Fast(Options(true, 1));
  auto fast_small = Fast(Options(false, 1, /*deterministic=*/true));
  auto fast_all = Fast(Options(false, 0));
  std::vector<std::unique_ptr<targets::Target>> fast_k;
  for (int k = 1; k <= cores; ++k) fast_k.push_back(Fast(Options(false, k)));
  auto bare_words = std::make_unique<std::atomic<uint32_t>[]>(kWords);

  // 1. fast vs oracle, one worker.
  for (const Pair& p : speedup) {
    const int64_t lanes = LaneInstructions(p.c);
    benchmark::RegisterBenchmark(
        ("speedup/oracle/" + p.name).c_str(),
        [&p, lanes](benchmark::State& s) { RunOracle(s, p.c, lanes); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark(
        ("speedup/fast1/" + p.name).c_str(),
        [&p, lanes, t = fast1.get()](benchmark::State& s) {
          RunFast(s, *t, p.c, lanes);
        })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark(
        ("speedup/fast1_trace/" + p.name).c_str(),
        [&p, lanes, t = fast1_trace.get()](benchmark::State& s) {
          RunFast(s, *t, p.c, lanes);
        })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
  // 2. latency of a small case (items = cases).
  benchmark::RegisterBenchmark(
      "latency/fast_det/small_64x16",
      [&small, t = fast_small.get()](benchmark::State& s) {
        RunFast(s, *t, small, 1);
      })
      ->Unit(benchmark::kMicrosecond)
      ->UseRealTime();
  // 3. atomics, all cores (items = atomic operations).
  for (size_t i = 0; i < atomics.size(); ++i) {
    const AtomicsWorkload& w = atomics[i];
    const isa::Case& c = atomic_cases[i];
    benchmark::RegisterBenchmark(("atomics/fast_all/" + w.name).c_str(),
                                 [&c, t = fast_all.get()](benchmark::State& s) {
                                   RunFast(s, *t, c, kAtomicOps);
                                 })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->MeasureProcessCPUTime();
    benchmark::RegisterBenchmark(
        ("atomics/bare_all/" + w.name).c_str(),
        [&w, cores, words = bare_words.get()](benchmark::State& s) {
          for (auto _ : s) BareAtomics(w, words, static_cast<unsigned>(cores));
          s.SetItemsProcessed(s.iterations() * kAtomicOps);
        })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->MeasureProcessCPUTime();
  }
  // 4. scaling, 1..cores workers (items = lane instructions).
  for (const Pair& p : scaling) {
    const int64_t lanes = LaneInstructions(p.c);
    for (int k = 1; k <= cores; ++k) {
      benchmark::RegisterBenchmark(
          absl::StrCat("scaling/fast/", p.name, "/workers:", k).c_str(),
          [&p, lanes, t = fast_k[static_cast<size_t>(k - 1)].get()](
              benchmark::State& s) { RunFast(s, *t, p.c, lanes); })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime()
          ->MeasureProcessCPUTime();
    }
  }

  Recorder recorder(isatty(STDOUT_FILENO)
                        ? benchmark::ConsoleReporter::OO_ColorTabular
                        : benchmark::ConsoleReporter::OO_Tabular);
  benchmark::RunSpecifiedBenchmarks(&recorder);
  benchmark::Shutdown();

  // Summary, from the runs above. Real time decides the goals; CPU time is
  // printed beside it because on a shared machine other processes take
  // cores: CPU time shows the work done, real time what that run got.
  auto real = [&](const std::string& n) { return recorder.Real(n); };
  auto cpu = [&](const std::string& n) { return recorder.Cpu(n); };
  std::printf(
      "\n==== summary (%d cores; median per run, from the runs above) ====\n",
      cores);
  std::printf("checks: %s\n",
              agree ? "fast target agreed on every workload's final memory"
                    : "MISMATCH on at least one workload (see above)");
  std::printf(
      "\n1. fast vs oracle, 64 groups x 256 threads, one worker (goal >= 30x, "
      "trace off):\n");
  for (const Pair& p : speedup) {
    const std::string o = "speedup/oracle/" + p.name,
                      f = "speedup/fast1/" + p.name,
                      ft = "speedup/fast1_trace/" + p.name;
    if (real(o) == 0 || real(f) == 0) {
      std::printf("speedup fast/oracle (%s, 1 worker): n/a\n", p.label.c_str());
      continue;
    }
    const double x = real(o) / real(f);
    std::printf(
        "speedup fast/oracle (%s, 1 worker): %.1fx  [oracle %.2f ms, fast %.3f "
        "ms; %s]"
        "  by CPU time %.1fx",
        p.label.c_str(), x, real(o) * 1e3, real(f) * 1e3,
        Verdict(x >= 30).c_str(), cpu(o) / cpu(f));
    if (real(ft) > 0)
      std::printf("  with fast trace on: %.1fx", real(o) / real(ft));
    std::printf("\n");
  }
  std::printf(
      "\n2. small case, 64 threads x 16 instructions, compile + run, "
      "deterministic (goal <= 10 us):\n");
  if (const std::string n = "latency/fast_det/small_64x16"; real(n) > 0) {
    std::printf("latency per case: %.2f us  [%s]  CPU %.2f us\n", real(n) * 1e6,
                Verdict(real(n) * 1e6 <= 10).c_str(), cpu(n) * 1e6);
  }
  std::printf(
      "\n3. atomic throughput, %d x 256 threads x 16 atomics, %d workers vs %d "
      "bare std::threads"
      " (goal >= 0.5):\n",
      kAtomicGroups, cores, cores);
  for (const auto& w : atomics) {
    const std::string f = "atomics/fast_all/" + w.name,
                      b = "atomics/bare_all/" + w.name;
    if (real(f) == 0 || real(b) == 0) {
      std::printf("atomics fast/bare (%s): n/a\n", w.name.c_str());
      continue;
    }
    const double ops = static_cast<double>(kAtomicOps);
    const double fraction = real(b) / real(f);
    std::printf(
        "atomics fast/bare (%s): %.2f  [fast %.1f M atomics/s, bare %.1f M "
        "atomics/s; %s]"
        "  by CPU time %.2f\n",
        w.name.c_str(), fraction, ops / real(f) / 1e6, ops / real(b) / 1e6,
        Verdict(fraction >= 0.5).c_str(), cpu(b) / cpu(f));
  }
  std::printf(
      "\n4. scaling, 1024 groups x 256 threads (work efficiency = CPU time of "
      "1 worker /"
      " CPU time of k):\n");
  for (const Pair& p : scaling) {
    const double lanes = static_cast<double>(LaneInstructions(p.c));
    const std::string one = absl::StrCat("scaling/fast/", p.name, "/workers:1");
    std::printf("scaling (%s):\n", p.label.c_str());
    for (int k = 1; k <= cores; ++k) {
      const std::string n =
          absl::StrCat("scaling/fast/", p.name, "/workers:", k);
      if (real(n) == 0) {
        std::printf("  %d workers: n/a\n", k);
        continue;
      }
      std::printf("  %d worker%s: %.1f M lane-instr/s", k, k == 1 ? " " : "s",
                  lanes / real(n) / 1e6);
      if (real(one) > 0) {
        std::printf("  speedup %.2fx  work efficiency %.2f",
                    real(one) / real(n), cpu(one) / cpu(n));
      }
      std::printf("\n");
    }
  }
  return agree ? 0 : 1;
}
