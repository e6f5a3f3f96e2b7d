// The reference interpreter on small cases: results, undefined values,
// races, poison, barriers, budgets and schedules.
#include "oracle/interpreter.h"

#include <algorithm>
#include <set>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "isa/case_file.h"

namespace atomfuzz::oracle {
namespace {

isa::Outcome RunText(const std::string& text,
                     Schedule schedule = Schedule::Canonical()) {
  auto c = isa::ParseCase(text, "test.case");
  EXPECT_TRUE(c.ok()) << c.status();
  InterpretOptions options;
  options.schedule = schedule;
  options.max_steps_per_thread = 10000;
  auto o = Interpret(*c, options);
  EXPECT_TRUE(o.ok()) << o.status();
  return *o;
}

// A raw u0 of `words` words and a shader body after the declarations.
std::string RawCase(int threads, int words, const std::string& body,
                    const std::string& extra_decls = "", int groups = 1) {
  return absl::StrCat("[dispatch]\ngroups ", groups,
                      ", 1, 1\n[uav u0]\nkind raw\nwords ", words,
                      "\n[shader]\ncs_5_0\ndcl_uav_raw u0\n", extra_decls,
                      "dcl_input vThreadIDInGroupFlattened\n"
                      "dcl_input vThreadGroupID.x\ndcl_temps 4\n"
                      "dcl_thread_group ",
                      threads, ", 1, 1\n", body, "ret\n");
}

TEST(Interpreter, ConcurrentIAddReturnsEveryPrefix) {  // E-25
  const auto o =
      RunText(RawCase(64, 1, "imm_atomic_iadd r0.x, u0, l(0), l(1)\n"),
              Schedule::Random(7));
  ASSERT_EQ(o.status, isa::RunStatus::kOk);
  EXPECT_EQ(o.uavs[0].words[0], 64u);
  EXPECT_TRUE(o.uavs[0].defined[0]);
  std::set<uint32_t> returned;
  for (const auto& e : o.trace) returned.insert(*e.returned);
  EXPECT_EQ(returned.size(), 64u);
  EXPECT_EQ(*returned.begin(), 0u);
  EXPECT_EQ(*returned.rbegin(), 63u);
}

TEST(Interpreter, DstAliasesTheAddressRegister) {  // E-8
  const auto o = RunText(RawCase(1, 4,
                                 "mov r0.x, l(4)\n"
                                 "imm_atomic_iadd r0.x, u0, r0.x, r0.x\n"
                                 "store_raw u0.x, l(0), r0.x\n"));
  EXPECT_EQ(o.uavs[0].words[1], 4u);  // old 0 + 4
  EXPECT_EQ(o.uavs[0].words[0], 0u);  // r0.x got the old value 0
}

// imul/umul whose destinations name one component: which half stays is
// undefined (docs/semantics.md, "Two destinations"); the others are defined.
TEST(Interpreter, TwoDestinationsOnOneComponentAreUndefined) {
  const auto o = RunText(RawCase(1, 4,
                                 "mov r1.xyzw, l(0, 0, 0, 0)\n"
                                 "umul r1.xy, r1.y, l(0x80000000), l(4)\n"
                                 "umul r2.x, r2.y, l(0x80000000), l(4)\n"
                                 "store_raw u0.xyzw, l(0), r1.xyxx\n"
                                 "store_raw u0.xy, l(8), r2.xyxx\n"));
  ASSERT_EQ(o.status, isa::RunStatus::kOk);
  EXPECT_EQ(o.uavs[0].words[0], 2u);  // high half, dst0 alone
  EXPECT_TRUE(o.uavs[0].defined[0]);
  EXPECT_FALSE(o.uavs[0].defined[1]);  // both halves: undefined
  EXPECT_EQ(o.uavs[0].words[2], 2u);   // apart: each half where it goes
  EXPECT_EQ(o.uavs[0].words[3], 0u);
  EXPECT_TRUE(o.uavs[0].defined[3]);
}

// The same for one x# element named twice, through a register index.
TEST(Interpreter, TwoDestinationsOnOneIndexableElementAreUndefined) {
  const auto o =
      RunText(RawCase(1, 4,
                      "mov r0.x, l(1)\n"
                      "umul x0[r0.x + 0].x, x0[1].x, l(0x80000000), l(4)\n"
                      "umul x0[0].x, x0[r0.x + 1].x, l(0x80000000), l(4)\n"
                      "mov r1.x, x0[1].x\n"
                      "mov r1.y, x0[0].x\n"
                      "mov r1.z, x0[2].x\n"
                      "store_raw u0.xyz, l(0), r1.xyzx\n",
                      "dcl_indexableTemp x0[3], 4\n"));
  ASSERT_EQ(o.status, isa::RunStatus::kOk);
  EXPECT_FALSE(o.uavs[0].defined[0]);
  EXPECT_EQ(o.uavs[0].words[1], 2u);
  EXPECT_TRUE(o.uavs[0].defined[1]);
  EXPECT_EQ(o.uavs[0].words[2], 0u);
  EXPECT_TRUE(o.uavs[0].defined[2]);
}

TEST(Interpreter, OutOfBoundsAtomicSkipsAndReturnsUndefined) {  // E-12
  const auto o = RunText(RawCase(1, 4,
                                 "imm_atomic_exch r0.x, u0, l(16), l(9)\n"
                                 "store_raw u0.x, l(0), r0.x\n"));
  EXPECT_FALSE(o.uavs[0].defined[0]);  // the undefined return, stored
  for (int w = 1; w < 4; ++w) EXPECT_EQ(o.uavs[0].words[w], 0u);
  EXPECT_EQ(o.trace[0].address, isa::AddressClass::kSkip);
  EXPECT_FALSE(o.trace[0].returned.has_value());
}

TEST(Interpreter, MisalignedAtomicPoisonsTheWholeUav) {  // E-13
  const auto o = RunText(RawCase(1, 4, "atomic_or u0, l(5), l(1)\n"));
  for (int w = 0; w < 4; ++w) EXPECT_FALSE(o.uavs[0].defined[w]);
}

TEST(Interpreter, PoisonReachesReadsThatRanEarlier) {
  // Thread 0 reads u0 first in canonical order; thread 1 poisons it later.
  // The read must still be undefined: the poisoning write can land first.
  const auto o = RunText(RawCase(2, 8,
                                 "if_z vThreadIDInGroupFlattened.x\n"
                                 "ld_raw_indexable(raw_buffer)(mixed,mixed,"
                                 "mixed,mixed) r0.x, l(0), u0.xxxx\n"
                                 "else\n"
                                 "atomic_or u0, l(2), l(1)\n"
                                 "endif\n"));
  EXPECT_FALSE(o.uavs[0].defined[0]);
}

TEST(Interpreter, TgsmIsUndefinedUntilWritten) {  // E-22
  const auto o = RunText(RawCase(1, 2,
                                 "ld_raw r0.x, l(0), g0.xxxx\n"
                                 "store_raw u0.x, l(0), r0.x\n"
                                 "store_raw g0.x, l(0), l(7)\n"
                                 "ld_raw r0.y, l(0), g0.xxxx\n"
                                 "store_raw u0.x, l(4), r0.y\n",
                                 "dcl_tgsm_raw g0, 16\n"));
  EXPECT_FALSE(o.uavs[0].defined[0]);
  EXPECT_TRUE(o.uavs[0].defined[1]);
  EXPECT_EQ(o.uavs[0].words[1], 7u);
}

TEST(Interpreter, BarrierOrdersTgsmBetweenThreads) {
  // Thread 0 writes g0, every thread reads it after sync_g_t: defined.
  const auto o =
      RunText(RawCase(4, 4,
                      "if_z vThreadIDInGroupFlattened.x\n"
                      "store_raw g0.x, l(0), l(42)\n"
                      "endif\n"
                      "sync_g_t\n"
                      "ld_raw r0.x, l(0), g0.xxxx\n"
                      "ishl r1.x, vThreadIDInGroupFlattened.x, l(2)\n"
                      "store_raw u0.x, r1.x, r0.x\n",
                      "dcl_tgsm_raw g0, 4\n"));
  for (int w = 0; w < 4; ++w) {
    EXPECT_TRUE(o.uavs[0].defined[w]) << w;
    EXPECT_EQ(o.uavs[0].words[w], 42u);
  }
}

TEST(Interpreter, ReadRacingWithAWriteIsUndefined) {  // E-28
  // Without the barrier the same pattern is a race: sync_g is only a fence.
  const auto o =
      RunText(RawCase(4, 4,
                      "if_z vThreadIDInGroupFlattened.x\n"
                      "store_raw g0.x, l(0), l(42)\n"
                      "endif\n"
                      "sync_g\n"
                      "ld_raw r0.x, l(0), g0.xxxx\n"
                      "ishl r1.x, vThreadIDInGroupFlattened.x, l(2)\n"
                      "store_raw u0.x, r1.x, r0.x\n",
                      "dcl_tgsm_raw g0, 4\n"));
  for (int w = 1; w < 4; ++w) EXPECT_FALSE(o.uavs[0].defined[w]) << w;
}

TEST(Interpreter, RacingStoresLeaveTheWordUndefined) {
  const auto o = RunText(
      RawCase(2, 1, "store_raw u0.x, l(0), vThreadIDInGroupFlattened.x\n"));
  EXPECT_FALSE(o.uavs[0].defined[0]);
}

TEST(Interpreter, StoreAndAtomicOnTgsmWithoutSyncIsUndefined) {  // E-27
  const auto o = RunText(RawCase(2, 1,
                                 "store_raw g0.x, l(0), l(0)\n"
                                 "sync_g_t\n"
                                 "if_z vThreadIDInGroupFlattened.x\n"
                                 "store_raw g0.x, l(0), l(5)\n"
                                 "else\n"
                                 "atomic_iadd g0, l(0), l(1)\n"
                                 "endif\n"
                                 "sync_g_t\n"
                                 "ld_raw r0.x, l(0), g0.xxxx\n"
                                 "store_raw u0.x, l(0), r0.x\n",
                                 "dcl_tgsm_raw g0, 4\n"));
  EXPECT_FALSE(o.uavs[0].defined[0]);
}

TEST(Interpreter, CrossGroupAtomicsAreFine) {
  const auto o = RunText(RawCase(8, 1, "atomic_iadd u0, l(0), l(2)\n", "", 4),
                         Schedule::Random(3));
  EXPECT_TRUE(o.uavs[0].defined[0]);
  EXPECT_EQ(o.uavs[0].words[0], 64u);
}

TEST(Interpreter, EndlessLoopEndsWithBudgetExceeded) {
  const auto o = RunText(RawCase(1, 1, "loop\nendloop\n"));
  EXPECT_EQ(o.status, isa::RunStatus::kBudgetExceeded);
}

// Every instruction executed is a step, the leading declarations included,
// whether the canonical schedule takes them in one go or the random one
// steps them: a straight-line program needs exactly its length per thread,
// and the dispatch its length times the threads.
TEST(Interpreter, DeclarationsCountAgainstTheBudgetExactly) {
  auto c =
      isa::ParseCase(RawCase(2, 1, "store_raw u0.x, l(0), l(7)\n"), "t.case");
  ASSERT_TRUE(c.ok());
  const uint64_t length = c->shader.instructions.size();
  for (const Schedule schedule : {Schedule::Canonical(), Schedule::Random(5)}) {
    for (uint64_t budget = 0; budget <= length + 1; ++budget) {
      SCOPED_TRACE(absl::StrCat(schedule.ToString(), " budget ", budget));
      InterpretOptions per_thread;
      per_thread.schedule = schedule;
      per_thread.max_steps_per_thread = budget;
      InterpretOptions total;
      total.schedule = schedule;
      total.max_total_steps = budget * 2;
      for (const InterpretOptions& options : {per_thread, total}) {
        auto o = Interpret(*c, options);
        ASSERT_TRUE(o.ok()) << o.status();
        EXPECT_EQ(o->status, budget >= length
                                 ? isa::RunStatus::kOk
                                 : isa::RunStatus::kBudgetExceeded);
      }
    }
  }
}

TEST(Interpreter, EndlessLoopOfAtomicsEndsAtTheTraceCap) {
  auto c = isa::ParseCase(
      RawCase(64, 1, "loop\natomic_iadd u0, l(0), l(1)\nendloop\n"), "t.case");
  ASSERT_TRUE(c.ok());
  InterpretOptions options;
  options.max_trace_events = 10000;
  auto o = Interpret(*c, options);
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->status, isa::RunStatus::kBudgetExceeded);
  EXPECT_LE(o->trace.size(), 10001u);
}

TEST(Interpreter, HugeDispatchIsRefusedNotWrapped) {
  // 769546 * 494770 * 48448661 = 2^64 + 4: must not wrap to a tiny count.
  auto c = isa::ParseCase(RawCase(1, 1, ""), "t.case");
  ASSERT_TRUE(c.ok());
  c->groups = {769546, 494770, 48448661};
  EXPECT_FALSE(Interpret(*c).ok());
}

TEST(Interpreter, BranchOnUndefinedMakesEverythingUndefined) {
  const auto o = RunText(RawCase(1, 2,
                                 "store_raw u0.x, l(4), l(1)\n"
                                 "if_nz r3.x\n"  // never written: undefined
                                 "store_raw u0.x, l(0), l(1)\n"
                                 "endif\n"));
  EXPECT_FALSE(o.uavs[0].defined[0]);
  EXPECT_FALSE(o.uavs[0].defined[1]);
}

TEST(Interpreter, LoopsSwitchesAndCalls) {
  // Sum 0..9 with a loop and classify with a switch.
  const auto o = RunText(RawCase(1, 2,
                                 "mov r0.xy, l(0, 0, 0, 0)\n"
                                 "loop\n"
                                 "uge r1.x, r0.x, l(10)\n"
                                 "breakc_nz r1.x\n"
                                 "iadd r0.y, r0.y, r0.x\n"
                                 "iadd r0.x, r0.x, l(1)\n"
                                 "endloop\n"
                                 "store_raw u0.x, l(0), r0.y\n"
                                 "switch r0.y\n"
                                 "case l(44)\n"
                                 "mov r2.x, l(1)\n"
                                 "break\n"
                                 "case l(45)\n"
                                 "mov r2.x, l(2)\n"
                                 "break\n"
                                 "default\n"
                                 "mov r2.x, l(3)\n"
                                 "break\n"
                                 "endswitch\n"
                                 "store_raw u0.x, l(4), r2.x\n"));
  EXPECT_EQ(o.uavs[0].words[0], 45u);
  EXPECT_EQ(o.uavs[0].words[1], 2u);
}

TEST(Interpreter, CountersAllocAndConsume) {  // E-36
  const std::string text =
      "[dispatch]\ngroups 1, 1, 1\n"
      "[uav u0]\nkind structured\nstride 4\nelements 4\ncounter 0xffffffff\n"
      "[uav u1]\nkind structured\nstride 4\nelements 4\ncounter 0\n"
      "[shader]\ncs_5_0\ndcl_uav_structured u0, 4\ndcl_uav_structured u1, 4\n"
      "dcl_temps 1\ndcl_thread_group 1, 1, 1\n"
      "imm_atomic_alloc r0.x, u0\nimm_atomic_consume r0.y, u1\n"
      "store_structured u0.x, l(0), l(0), r0.x\n"
      "store_structured u1.x, l(0), l(0), r0.y\nret\n";
  const auto o = RunText(text);
  EXPECT_EQ(o.uavs[0].words[0], 0xffffffffu);
  EXPECT_EQ(*o.uavs[0].counter, 0u);
  EXPECT_EQ(o.uavs[1].words[0], 0xffffffffu);
  EXPECT_EQ(*o.uavs[1].counter, 0xffffffffu);
}

TEST(Interpreter, RandomSchedulesDifferAndRepeat) {
  const std::string text = RawCase(
      16, 1, "imm_atomic_exch r0.x, u0, l(0), vThreadIDInGroupFlattened.x\n");
  const auto a = RunText(text, Schedule::Random(1));
  const auto b = RunText(text, Schedule::Random(1));
  const auto c = RunText(text, Schedule::Random(2));
  EXPECT_EQ(a.trace, b.trace);
  EXPECT_NE(a.trace, c.trace);
}

TEST(Schedule, ParsesAndPrints) {
  EXPECT_EQ(Schedule::Parse("canonical")->kind, Schedule::Kind::kCanonical);
  EXPECT_EQ(Schedule::Parse("random:0x10")->seed, 16u);
  EXPECT_EQ(Schedule::Parse("random:5")->ToString(), "random:5");
  EXPECT_FALSE(Schedule::Parse("random:").ok());
  EXPECT_FALSE(Schedule::Parse("sometimes").ok());
}

}  // namespace
}  // namespace atomfuzz::oracle
