// The reference interpreter's speed in lane-instructions per second on three
// workloads, and the judge's time on a million traceable atomics on one word
// plus its `unknown` rate on non-traceable imax/umax mixes.
//
//   build/bench/oracle_bench
#include <string>

#include "absl/strings/str_cat.h"
#include "bench/bench_cases.h"
#include "benchmark/benchmark.h"
#include "isa/case_file.h"
#include "isa/prng.h"
#include "oracle/interpreter.h"
#include "oracle/judge.h"
#include "oracle/serialization.h"

namespace atomfuzz::oracle {
namespace {

// `groups` x 256 threads running straight-line `body`.
isa::Case MakeCase(int groups, const std::string& body) {
  return bench::MakeCase(groups, 256, 65536, 4, body);
}

using bench::Instructions;
using bench::Repeat;

void RunWorkload(benchmark::State& state, const isa::Case& c) {
  const int64_t lanes = int64_t{c.groups[0]} * 256 * Instructions(c);
  for (auto _ : state) {
    auto o = Interpret(c);
    benchmark::DoNotOptimize(o);
  }
  state.counters["lane_instr/s"] =
      benchmark::Counter(static_cast<double>(lanes),
                         benchmark::Counter::kIsIterationInvariantRate);
}

void BM_OracleAluHeavy(benchmark::State& state) {
  static const isa::Case c = MakeCase(
      64, "mov r0.x, vThreadID.x\n" +
              Repeat("imad r0.x, r0.x, l(3), l(7)\nxor r0.y, r0.x, l(0x55)\n"
                     "ushr r0.z, r0.y, l(3)\niadd r0.x, r0.x, r0.z\n",
                     16) +
              "ishl r1.x, vThreadID.x, l(2)\nstore_raw u0.x, r1.x, r0.x\n");
  RunWorkload(state, c);
}

void BM_OracleAtomicOneWord(benchmark::State& state) {
  static const isa::Case c =
      MakeCase(64, Repeat("imm_atomic_iadd r0.x, u0, l(0), l(1)\n", 16));
  RunWorkload(state, c);
}

void BM_OracleAtomicSpread(benchmark::State& state) {
  static const isa::Case c =
      MakeCase(64, "ishl r1.x, vThreadID.x, l(2)\n" +
                       Repeat("imm_atomic_iadd r0.x, u0, r1.x, l(1)\n"
                              "atomic_or u0, r1.x, l(2)\n",
                              8));
  RunWorkload(state, c);
}

// 10^6 traceable atomics (distinct addends / unique exchange values) on one
// word, observed in a random order: the judge rebuilds the order.
std::vector<SerialOp> TraceableOps(isa::Rmw rmw, uint32_t n,
                                   uint32_t* final_value) {
  std::vector<uint32_t> order(n);
  for (uint32_t i = 0; i < n; ++i) order[i] = i;
  isa::Prng prng(99);
  for (uint32_t i = n - 1; i > 0; --i)
    std::swap(order[i], order[prng.Below(i + 1)]);
  std::vector<SerialOp> ops(n);
  uint32_t v = 0;
  for (uint32_t k = 0; k < n; ++k) {
    const uint32_t i = order[k];
    SerialOp& o = ops[i];
    o.chain = i;
    o.rmw = rmw;
    o.src0 = rmw == isa::Rmw::kIAdd ? 2 * i + 1 : i + 1;
    o.returned = v;
    v = SerialApply(o, v);
  }
  *final_value = v;
  return ops;
}

void BM_JudgeMillionTraceable(benchmark::State& state) {
  const auto rmw = state.range(0) == 0 ? isa::Rmw::kIAdd : isa::Rmw::kExch;
  uint32_t final_value = 0;
  const std::vector<SerialOp> ops = TraceableOps(rmw, 1000000, &final_value);
  for (auto _ : state) {
    const SerialResult r = CheckSerialization(0, ops, final_value, 4000000);
    if (r.kind != SerialResult::Kind::kAllowed)
      state.SkipWithError("not allowed");
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations() *
                          static_cast<int64_t>(ops.size()));
  state.SetLabel(rmw == isa::Rmw::kIAdd ? "iadd, distinct addends"
                                        : "exch, unique values");
}

// 64 threads of imax/umax with small random values (many equal returns):
// how often does the judge give up within its budget?
void BM_JudgeUnknownRateMinMax(benchmark::State& state) {
  std::string body =
      "and r0.x, vThreadID.x, l(7)\n"
      "imm_atomic_imax r1.x, u0, l(0), r0.x\n"
      "ineg r0.y, r0.x\n"
      "imm_atomic_umax r1.y, u0, l(0), r0.y\n"
      "imm_atomic_imax r1.z, u0, l(0), r0.y\n";
  const std::string text = absl::StrCat(
      "[dispatch]\ngroups 1, 1, 1\n[uav u0]\nkind raw\nwords 1\n"
      "[shader]\ncs_5_0\ndcl_uav_raw u0\ndcl_input vThreadID.x\ndcl_temps 2\n"
      "dcl_thread_group 64, 1, 1\n",
      body, "ret\n");
  const isa::Case c = *isa::ParseCase(text, "minmax.case");
  uint64_t seed = 0, unknown = 0, judged = 0;
  JudgeOptions options;
  options.search_budget = 1u << 16;
  for (auto _ : state) {
    InterpretOptions io;
    io.schedule = Schedule::Random(++seed);
    const isa::Outcome o = *Interpret(c, io);
    const Verdict v = *Judge(c, o, options);
    ++judged;
    if (v.kind == Verdict::Kind::kUnknown) ++unknown;
    if (v.kind == Verdict::Kind::kDivergence)
      state.SkipWithError("false alarm");
  }
  state.counters["unknown_rate"] =
      static_cast<double>(unknown) / static_cast<double>(judged ? judged : 1);
}

BENCHMARK(BM_OracleAluHeavy)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_OracleAtomicOneWord)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_OracleAtomicSpread)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_JudgeMillionTraceable)
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_JudgeUnknownRateMinMax)
    ->Iterations(200)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace atomfuzz::oracle

BENCHMARK_MAIN();
