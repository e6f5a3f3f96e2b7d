// Robustness of the fast target on hostile random cases (wild addresses,
// endless loops, odd dispatches, broken control flow): every case ends as
// ok, rejected or budget-exceeded with an outcome of the right shape, and
// never crashes or hangs. Meant for the asan-ubsan preset as well, with
// ATOMFUZZ_STRESS_CASES=100000 (the command is in CMakeLists.txt here).
// Every 50th case (ATOMFUZZ_STRESS_ORACLE_EVERY) also runs on the oracle and
// round-trips through the case text. ATOMFUZZ_STRESS_SEED picks the first
// seed (default 1); a failure names its seed and prints the case.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gtest/gtest.h"
#include "isa/case_file.h"
#include "isa/opcode_table.h"
#include "isa/outcome.h"
#include "isa/stages.h"
#include "oracle/interpreter.h"
#include "targets/fast/injection.h"
#include "targets/registry.h"
#include "tests/targets/random_program.h"
#include "tests/testing/round_trip.h"

namespace atomfuzz::targets {
namespace {

constexpr uint64_t kMaxStepsPerWave = 20000;
// Case i runs with a bug injected when i % kInjectEvery == 3: the injected
// handlers must be as robust as the real ones.
constexpr uint64_t kInjectEvery = 7;

uint64_t EnvNumber(const char* name, uint64_t fallback) {
  const char* text = std::getenv(name);
  uint64_t v = 0;
  if (text == nullptr || !absl::SimpleAtoi(text, &v)) return fallback;
  return v;
}

bool Survivable(isa::RunStatus s) {
  return s == isa::RunStatus::kOk || s == isa::RunStatus::kRejected ||
         s == isa::RunStatus::kBudgetExceeded;
}

// The fast target reports every bound resource, in slot order, with its
// words (and counter) whatever the program did.
::testing::AssertionResult FastShape(const isa::Case& c,
                                     const isa::Outcome& o) {
  if (o.uavs.size() != c.resources.size()) {
    return ::testing::AssertionFailure() << o.uavs.size() << " UAVs for "
                                         << c.resources.size() << " resources";
  }
  for (size_t i = 0; i < o.uavs.size(); ++i) {
    const isa::Resource& r = c.resources[i];
    const isa::UavState& u = o.uavs[i];
    if (u.slot != r.slot || u.words.size() != r.WordCount() ||
        u.defined.size() != u.words.size() ||
        u.counter.has_value() != r.counter.has_value()) {
      return ::testing::AssertionFailure()
             << "u" << u.slot << ": " << u.words.size() << " words, "
             << u.defined.size() << " defined flags, counter "
             << u.counter.has_value() << "; resource u" << r.slot << " has "
             << r.WordCount() << " words, counter " << r.counter.has_value();
    }
  }
  return ::testing::AssertionSuccess();
}

// The oracle reports the declared UAVs, each the size of its resource.
::testing::AssertionResult OracleShape(const isa::Case& c,
                                       const isa::Outcome& o) {
  for (const isa::UavState& u : o.uavs) {
    const isa::Resource* r = c.FindResource(u.slot);
    if (r == nullptr || u.words.size() != r->WordCount() ||
        u.defined.size() != u.words.size()) {
      return ::testing::AssertionFailure()
             << "u" << u.slot << ": " << u.words.size() << " words for "
             << (r ? absl::StrCat(r->WordCount()) : std::string("no resource"));
    }
  }
  return ::testing::AssertionSuccess();
}

struct Targets {
  std::unique_ptr<Target> pool, deterministic;
  std::vector<std::unique_ptr<Target>> injected;
};

Targets MakeTargets() {
  Targets t;
  TargetOptions options;
  options.max_steps_per_wave = kMaxStepsPerWave;
  options.threads = 4;
  // Endless loops full of atomics make traces of a million events; one
  // traced and one untraced target keep both paths covered and the run
  // quick under ASan.
  options.trace = false;
  t.pool = *CreateTarget("fast", options);
  options.trace = true;
  options.deterministic = true;
  t.deterministic = *CreateTarget("fast", options);
  options.deterministic = false;
  for (const fast::InjectionInfo& info : fast::AllInjections()) {
    options.flags["inject"] = std::string(info.name);
    t.injected.push_back(*CreateTarget("fast", options));
  }
  return t;
}

Target& TargetFor(Targets& t, uint64_t i) {
  if (i % kInjectEvery == 3) {
    return *t.injected[(i / kInjectEvery) % t.injected.size()];
  }
  return i % 2 == 0 ? *t.pool : *t.deterministic;
}

// The oracle must refuse cleanly (InvalidArgument) or finish.
void CheckOracle(const testutil::RandomCase& rc, uint64_t seed) {
  oracle::InterpretOptions options;
  options.schedule = seed % 2 == 0 ? oracle::Schedule::Canonical()
                                   : oracle::Schedule::Random(seed);
  options.max_steps_per_thread = 4000;
  options.max_total_steps = 1u << 19;
  const absl::StatusOr<isa::Outcome> o = oracle::Interpret(rc.c, options);
  if (!o.ok()) {
    EXPECT_TRUE(absl::IsInvalidArgument(o.status()))
        << "seed " << seed << ": " << o.status() << "\n"
        << isa::PrintCase(rc.c);
    return;
  }
  EXPECT_FALSE(rc.unbalanced) << "seed " << seed << ": the oracle ran broken "
                              << "control flow\n"
                              << isa::PrintCase(rc.c);
  EXPECT_TRUE(Survivable(o->status))
      << "seed " << seed << ": " << isa::RunStatusName(o->status);
  EXPECT_TRUE(OracleShape(rc.c, *o)) << "seed " << seed;
}

TEST(FastStress, RandomCasesEndCleanly) {
  const uint64_t cases = EnvNumber("ATOMFUZZ_STRESS_CASES", 2000);
  const uint64_t first = EnvNumber("ATOMFUZZ_STRESS_SEED", 1);
  const uint64_t oracle_every =
      std::max<uint64_t>(1, EnvNumber("ATOMFUZZ_STRESS_ORACLE_EVERY", 50));
  Targets targets = MakeTargets();
  std::map<std::string, uint64_t> statuses;
  std::set<isa::Op> seen;
  uint64_t unbalanced = 0, oracle_runs = 0;
  const auto start = std::chrono::steady_clock::now();
  for (uint64_t i = 0; i < cases; ++i) {
    const uint64_t seed = first + i;
    const testutil::RandomCase rc = testutil::MakeRandomCase(seed);
    for (const isa::Instruction& inst : rc.c.shader.instructions)
      seen.insert(inst.op);
    Target& target = TargetFor(targets, i);
    const absl::StatusOr<isa::Outcome> o = target.Run(rc.c);
    ASSERT_TRUE(o.ok()) << "seed " << seed << ": " << o.status();
    ASSERT_TRUE(Survivable(o->status))
        << "seed " << seed << ": " << isa::RunStatusName(o->status) << " "
        << o->message << "\n"
        << isa::PrintCase(rc.c);
    if (rc.unbalanced) {
      ++unbalanced;
      EXPECT_EQ(o->status, isa::RunStatus::kRejected)
          << "seed " << seed << ": broken control flow ran\n"
          << isa::PrintCase(rc.c);
    }
    if (o->status != isa::RunStatus::kRejected) {
      ASSERT_TRUE(FastShape(rc.c, *o)) << "seed " << seed << "\n"
                                       << isa::PrintCase(rc.c);
    }
    ++statuses[std::string(isa::RunStatusName(o->status))];
    if (i % oracle_every == 0) {
      ++oracle_runs;
      CheckOracle(rc, seed);
      // Generated cases stay inside the case model: they print and parse
      // back. All but an empty resource, which executors must bound (the
      // API takes one) but no case file may hold (Direct3D makes none).
      if (absl::c_none_of(rc.c.resources, [](const isa::Resource& r) {
            return r.WordCount() == 0;
          })) {
        EXPECT_TRUE(testutil::CaseRoundTrips(rc.c)) << "seed " << seed;
      }
    }
    if (::testing::Test::HasFailure()) break;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  std::string summary;
  for (const auto& [name, n] : statuses)
    absl::StrAppend(&summary, " ", name, "=", n);
  absl::PrintF(
      "%d cases (seeds %d..%d) in %.1f s: %.0f cases/s;%s; %d unbalanced; "
      "%d also on the oracle\n",
      cases, first, first + cases - 1, seconds,
      seconds > 0 ? static_cast<double>(cases) / seconds : 0.0, summary,
      unbalanced, oracle_runs);
  // Reachability: a run of the default length draws every row of the table.
  if (cases >= 2000) {
    for (const isa::OpcodeInfo& row : isa::AllOpcodes()) {
      if (isa::PixelOnly(row)) continue;  // random programs are cs_5_0
      EXPECT_TRUE(seen.contains(row.op)) << row.mnemonic << " never generated";
    }
  }
}

// An endless loop of atomics in a full group, under the default budget:
// the trace (an event per lane per atomic) must not grow with the 2^20
// steps a wave may take times its 1024 lanes (that was 2^29 events, 32 GiB:
// std::bad_alloc). The run ends as over budget instead.
TEST(FastStress, EndlessAtomicsInAFullGroupEndWithinBounds) {
  constexpr char kText[] = R"([dispatch]
groups 2, 1, 1

[uav u0]
kind raw
words 4

[shader]
cs_5_0
dcl_uav_raw u0
dcl_temps 1
dcl_thread_group 1024, 1, 1
loop
  imm_atomic_iadd r0.x, u0, l(0), l(1)
endloop
ret
)";
  const absl::StatusOr<isa::Case> c = isa::ParseCase(kText, "endless.case");
  ASSERT_TRUE(c.ok()) << c.status();
  for (bool deterministic : {true, false}) {
    TargetOptions options;  // the default budget
    options.deterministic = deterministic;
    const absl::StatusOr<isa::Outcome> o =
        (*CreateTarget("fast", options))->Run(*c);
    ASSERT_TRUE(o.ok()) << o.status();
    EXPECT_EQ(o->status, isa::RunStatus::kBudgetExceeded) << o->message;
    EXPECT_LE(o->trace.size(), size_t{1} << 23);
  }
}

// Group sizes whose 64-bit product wraps to a small number: 769546 *
// 494770 * 48448661 = 2^64 + 4. A target that multiplies the three in 64
// bits sees a group of 4 threads; the case must be refused, not run as 4
// lanes with ids counted up to the real extents.
TEST(FastStress, GroupSizeProductThatWrapsIsRefused) {
  constexpr char kText[] = R"([dispatch]
groups 1, 1, 1

[uav u0]
kind raw
words 4

[shader]
cs_5_0
dcl_uav_raw u0
dcl_input vThreadIDInGroupFlattened
dcl_temps 1
dcl_thread_group 769546, 494770, 48448661
ishl r0.x, vThreadIDInGroupFlattened.x, l(2)
store_raw u0.x, r0.x, l(1)
ret
)";
  const absl::StatusOr<isa::Case> c = isa::ParseCase(kText, "wrap.case");
  ASSERT_TRUE(c.ok()) << c.status();
  const absl::StatusOr<isa::Outcome> o =
      (*CreateTarget("fast", TargetOptions{}))->Run(*c);
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->status, isa::RunStatus::kRejected) << o->message;
}

}  // namespace
}  // namespace atomfuzz::targets
