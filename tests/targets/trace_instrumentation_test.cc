// The trace instrumentation must not change what a program does: on the
// fast target (deterministic), the instrumented case leaves every original
// UAV word and counter as the original case does, and the log it writes
// rebuilds the fast target's own trace.
#include "targets/trace_instrumentation.h"

#include <map>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "isa/validator.h"
#include "targets/fast/fast_target.h"
#include "tests/fuzz/corpus_files.h"
#include "tests/targets/random_program.h"

namespace atomfuzz::targets {
namespace {

using Key = std::tuple<std::array<uint32_t, 3>, std::array<uint32_t, 3>,
                       uint32_t, uint32_t>;

std::unique_ptr<Target> Fast() {
  TargetOptions options;
  options.deterministic = true;
  options.max_steps_per_wave = 1u << 22;  // room for the logging code
  return *fast::CreateFastTarget(options);
}

// One group of two threads, one raw word u0, one temp; `code` after the
// declarations.
absl::StatusOr<isa::Case> TwoThreadsOnOneWord(absl::string_view code) {
  return isa::ParseCase(absl::StrCat(R"([dispatch]
groups 1, 1, 1

[uav u0]
kind raw
words 1

[shader]
cs_5_0
dcl_uav_raw u0
dcl_temps 1
dcl_thread_group 2, 1, 1
)",
                                     code));
}

// Runs `c` both ways; returns how many traced events it compared.
size_t ExpectSameBehaviour(Target& fast, const isa::Case& c,
                           const std::string& name) {
  absl::StatusOr<isa::Outcome> plain = fast.Run(c);
  EXPECT_TRUE(plain.ok()) << name;
  if (!plain.ok() || plain->status != isa::RunStatus::kOk) return 0;
  absl::StatusOr<InstrumentedCase> ic = InstrumentForTrace(c);
  if (!ic.ok()) {
    ADD_FAILURE() << name << ": " << ic.status();
    return 0;
  }
  EXPECT_TRUE(isa::Validate(ic->instrumented).ok())
      << name << ": " << isa::Validate(ic->instrumented);
  absl::StatusOr<isa::Outcome> run = fast.Run(ic->instrumented);
  EXPECT_TRUE(run.ok()) << name;
  if (!run.ok()) return 0;
  EXPECT_EQ(run->status, isa::RunStatus::kOk) << name << ": " << run->message;
  const isa::Outcome decoded = DecodeTrace(c, ic->layout, *run);
  EXPECT_EQ(decoded.uavs, plain->uavs) << name;
  EXPECT_TRUE(decoded.has_trace) << name << ": " << decoded.message;
  std::map<Key, const isa::AtomicEvent*> mine;
  for (const isa::AtomicEvent& e : decoded.trace) {
    mine[{e.group, e.thread, e.instruction, e.occurrence}] = &e;
  }
  EXPECT_EQ(mine.size(), decoded.trace.size())
      << name << ": duplicate event keys";
  EXPECT_EQ(decoded.trace.size(), plain->trace.size()) << name;
  size_t compared = 0;
  for (const isa::AtomicEvent& e : plain->trace) {
    auto it = mine.find({e.group, e.thread, e.instruction, e.occurrence});
    if (it == mine.end()) {
      ADD_FAILURE() << name << ": instruction " << e.instruction
                    << " missing from the log";
      continue;
    }
    EXPECT_EQ(it->second->file, e.file) << name;
    EXPECT_EQ(it->second->slot, e.slot) << name;
    const isa::Instruction& in = c.shader.instructions[e.instruction];
    if (!in.info().returns_old()) {
      EXPECT_FALSE(it->second->returned.has_value()) << name;
    } else if (it->second->returned) {
      EXPECT_EQ(it->second->returned, e.returned)
          << name << ": instruction " << e.instruction << " occurrence "
          << e.occurrence;
      ++compared;
    }
  }
  return compared;
}

TEST(TraceInstrumentation, KeepsCorpusBehaviourOnTheFastTarget) {
  const std::vector<std::string> files = fuzz::testutil::CorpusCaseFiles();
  ASSERT_FALSE(files.empty());
  std::unique_ptr<Target> fast = Fast();
  size_t compared = 0;
  for (const std::string& f : files) {
    absl::StatusOr<isa::Case> c = fuzz::testutil::LoadCorpusCase(f);
    ASSERT_TRUE(c.ok()) << c.status();
    compared += ExpectSameBehaviour(*fast, *c, f);
  }
  EXPECT_GT(compared, 100u);
}

TEST(TraceInstrumentation, KeepsRandomBehaviourOnTheFastTarget) {
  std::unique_ptr<Target> fast = Fast();
  int valid = 0;
  for (uint64_t seed = 1; valid < 60 && seed < 3000; ++seed) {
    const testutil::RandomCase rc = testutil::MakeRandomCase(seed);
    if (rc.unbalanced || !isa::Validate(rc.c).ok()) continue;
    ++valid;
    ExpectSameBehaviour(*fast, rc.c, absl::StrCat("random seed ", seed));
  }
  EXPECT_GE(valid, 30);
}

// Atomics outside loops (registers and a mask) and inside (entries)
// interleave in program order; every way out (retc, a ret in an if, the
// last ret) writes the record.
TEST(TraceInstrumentation, MixesRegisterAndLoopAtomicsAcrossEveryReturn) {
  absl::StatusOr<isa::Case> c = isa::ParseCase(R"([dispatch]
groups 2, 1, 1

[uav u0]
kind raw
words 4

[shader]
cs_5_0
dcl_uav_raw u0
dcl_input vThreadIDInGroupFlattened
dcl_temps 2
dcl_thread_group 4, 1, 1
imm_atomic_iadd r0.x, u0, l(0), l(1)
atomic_or u0, l(4), l(2)
mov r1.x, l(0)
loop
  uge r1.y, r1.x, vThreadIDInGroupFlattened.x
  breakc_nz r1.y
  imm_atomic_iadd r0.y, u0, l(0), l(16)
  atomic_iadd u0, l(8), l(1)
  iadd r1.x, r1.x, l(1)
endloop
imm_atomic_exch r0.z, u0, l(12), vThreadIDInGroupFlattened.x
ieq r1.z, vThreadIDInGroupFlattened.x, l(1)
retc_nz r1.z
imm_atomic_umax r0.w, u0, l(4), l(7)
ieq r1.z, vThreadIDInGroupFlattened.x, l(2)
if_nz r1.z
  imm_atomic_iadd r0.w, u0, l(0), l(256)
  ret
endif
imm_atomic_xor r0.w, u0, l(8), l(4096)
ret
)");
  ASSERT_TRUE(c.ok()) << c.status();
  ASSERT_TRUE(isa::Validate(*c).ok()) << isa::Validate(*c);
  std::unique_ptr<Target> fast = Fast();
  // Returning atomics run: 1 + (0+1+2+3) + 1 per group's threads, then
  // thread 1 leaves, umax for 3 threads, one more for thread 2, xor for 2.
  EXPECT_EQ(ExpectSameBehaviour(*fast, *c, "mixed"),
            2u * (4 + 6 + 4 + 3 + 1 + 2));
}

// lavapipe may spend its loop budget on a loop no thread enters (docs/
// findings.md #10): the record's loop then writes its first word only. The
// decoder keeps the memory for the judge and drops the trace.
TEST(TraceInstrumentation, ARecordCutShortDropsTheTraceNotTheRun) {
  absl::StatusOr<isa::Case> c =
      TwoThreadsOnOneWord(R"(imm_atomic_iadd r0.x, u0, l(0), l(1)
ret
)");
  ASSERT_TRUE(c.ok()) << c.status();
  absl::StatusOr<InstrumentedCase> ic = InstrumentForTrace(*c);
  ASSERT_TRUE(ic.ok()) << ic.status();
  std::unique_ptr<Target> fast = Fast();
  absl::StatusOr<isa::Outcome> run = fast->Run(ic->instrumented);
  ASSERT_TRUE(run.ok());
  TraceDecodeOptions cap;
  cap.loop_cap = 65535;
  EXPECT_TRUE(DecodeTrace(*c, ic->layout, *run, cap).has_trace);
  for (isa::UavState& u : run->uavs) {
    if (u.slot == ic->layout.log_slot)
      u.words[ic->layout.record_words + 1] = 0xffffffffu;
  }
  const isa::Outcome decoded = DecodeTrace(*c, ic->layout, *run, cap);
  EXPECT_EQ(decoded.status, isa::RunStatus::kOk);
  EXPECT_FALSE(decoded.has_trace);
  EXPECT_NE(decoded.message.find("cut short"), std::string::npos)
      << decoded.message;
  ASSERT_EQ(decoded.uavs.size(), 1u);
  EXPECT_EQ(decoded.uavs[0].words[0], 2u);
}

// Spec 1.8: a dispatch with a zero dimension runs nothing; the log still
// has a row, so a device can bind it (a campaign found the rejection).
TEST(TraceInstrumentation, AnEmptyDispatchRunsWithAnEmptyTrace) {
  absl::StatusOr<isa::Case> c = isa::ParseCase(R"([dispatch]
groups 2, 1, 0

[uav u0]
kind raw
words 1
data 7

[shader]
cs_5_0
dcl_uav_raw u0
dcl_temps 1
dcl_thread_group 1, 1, 1
loop
  imm_atomic_iadd r0.x, u0, l(0), l(1)
  break
endloop
ret
)");
  ASSERT_TRUE(c.ok()) << c.status();
  std::unique_ptr<Target> fast = Fast();
  EXPECT_EQ(ExpectSameBehaviour(*fast, *c, "empty dispatch"), 0u);
  absl::StatusOr<InstrumentedCase> ic = InstrumentForTrace(*c);
  ASSERT_TRUE(ic.ok()) << ic.status();
  EXPECT_EQ(ic->layout.threads, 0u);
}

TEST(TraceInstrumentation, ReportsOverflowAndTheLoopCap) {
  absl::StatusOr<isa::Case> c = TwoThreadsOnOneWord(R"(mov r0.x, l(0)
loop
  uge r0.y, r0.x, l(5000)
  breakc_nz r0.y
  imm_atomic_iadd r0.z, u0, l(0), l(1)
  iadd r0.x, r0.x, l(1)
endloop
ret
)");
  ASSERT_TRUE(c.ok()) << c.status();
  ASSERT_TRUE(isa::Validate(*c).ok()) << isa::Validate(*c);
  absl::StatusOr<InstrumentedCase> ic = InstrumentForTrace(*c);
  ASSERT_TRUE(ic.ok()) << ic.status();
  std::unique_ptr<Target> fast = Fast();
  absl::StatusOr<isa::Outcome> run = fast->Run(ic->instrumented);
  ASSERT_TRUE(run.ok());
  ASSERT_EQ(run->status, isa::RunStatus::kOk) << run->message;
  // 5000 atomics per thread > the 4096 entries a looping thread gets.
  const isa::Outcome decoded = DecodeTrace(*c, ic->layout, *run);
  EXPECT_FALSE(decoded.has_trace);
  EXPECT_NE(decoded.message.find("trace overflow"), std::string::npos)
      << decoded.message;
  EXPECT_EQ(decoded.uavs[0].words[0], 10000u);
  // Two threads of one vector start 2 x 5001 iterations, and the record's
  // loop 2 more (its two words).
  TraceDecodeOptions cap;
  cap.loop_cap = 10004;
  cap.loop_cap_name = "lavapipe loop cap";
  const isa::Outcome capped = DecodeTrace(*c, ic->layout, *run, cap);
  EXPECT_EQ(capped.status, isa::RunStatus::kBudgetExceeded);
  EXPECT_NE(capped.message.find("lavapipe loop cap"), std::string::npos)
      << capped.message;
  cap.loop_cap = 10005;
  EXPECT_EQ(DecodeTrace(*c, ic->layout, *run, cap).status, isa::RunStatus::kOk);
}

}  // namespace
}  // namespace atomfuzz::targets
