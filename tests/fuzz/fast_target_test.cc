// The fast executor through the Target interface, on small hand-made cases:
// concurrent atomics, bounds (spec 1.3, E-12..E-20), budgets, indexable
// temps, the trace, determinism and option errors. Control flow and ALU
// results against the oracle are in fast_target_flow_test.cc.
#include <algorithm>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "fuzz/runner.h"
#include "gtest/gtest.h"
#include "isa/case_file.h"
#include "tests/fuzz/fast_testing.h"

namespace atomfuzz::fuzz {
namespace {

using testutil::CaseText;
using testutil::ExpectAllowed;
using testutil::ExpectMatchesOracle;
using testutil::Fast;
using testutil::InstructionIndex;
using testutil::kModes;
using testutil::Parse;
using testutil::Ramp;
using testutil::RawUav;
using testutil::RunFast;
using testutil::RunOn;

// ---------------------------------------------------------------------------
// Concurrent atomics (E-25).

TEST(FastTarget, IAddBy64ThreadsGivesInitPlus64AndReturnsAPermutation) {
  // One group of 64 and four groups of 16; each thread stores what it got.
  for (const auto& [groups, threads] : {std::pair{1, 64}, std::pair{4, 16}}) {
    const isa::Case c = Parse(CaseText(
        groups, threads, RawUav(0, 1, "1000") + RawUav(1, 64),
        "dcl_uav_raw u0\ndcl_uav_raw u1\ndcl_input vThreadID.x\ndcl_temps 2\n",
        "imm_atomic_iadd r0.x, u0, l(0), l(1)\n"
        "ishl r1.x, vThreadID.x, l(2)\n"
        "store_raw u1.x, r1.x, r0.x\n"));
    for (const Fast& mode : kModes) {
      SCOPED_TRACE(
          absl::StrCat(groups, " groups, deterministic ", mode.deterministic));
      const isa::Outcome o = RunFast(c, mode);
      ASSERT_EQ(o.uavs.size(), 2u);
      EXPECT_EQ(o.uavs[0].words[0], 1064u);
      std::vector<uint32_t> stored = o.uavs[1].words;
      std::sort(stored.begin(), stored.end());
      EXPECT_EQ(stored, Ramp(1000, 64));
      ASSERT_TRUE(o.has_trace);
      ASSERT_EQ(o.trace.size(), 64u);
      std::vector<uint32_t> returned;
      for (const isa::AtomicEvent& e : o.trace) {
        EXPECT_EQ(e.address, isa::AddressClass::kInBounds);
        EXPECT_EQ(e.word, 0u);
        ASSERT_TRUE(e.returned.has_value());
        returned.push_back(*e.returned);
      }
      std::sort(returned.begin(), returned.end());
      EXPECT_EQ(returned, Ramp(1000, 64));
      ExpectAllowed(c, o);
    }
  }
}

// ---------------------------------------------------------------------------
// Bounds (spec 1.3).

TEST(FastTarget,
     OutOfBoundsAtomicsLeaveMemoryAlone) {  // E-12, E-14, E-18, E-20
  const std::string uavs =
      RawUav(0, 4, "ramp(10, 1, 4)") +
      "[uav u1]\nkind structured\nstride 8\nelements 2\ndata ramp(20, 1, 4)\n"
      "[uav u2]\nkind typed\ndim texture2d\nformat r32_uint\nsize 2, 2\n"
      "data ramp(30, 1, 4)\n"
      "[uav u3]\nkind typed\ndim buffer\nformat r32_uint\nsize 3\n"
      "data ramp(40, 1, 3)\n";
  const isa::Case c = Parse(CaseText(
      1, 1, uavs,
      "dcl_uav_raw u0\ndcl_uav_structured u1, 8\n"
      "dcl_uav_typed_texture2d (uint,uint,uint,uint) u2\n"
      "dcl_uav_typed_buffer (uint,uint,uint,uint) u3\ndcl_temps 1\n",
      "imm_atomic_iadd r0.x, u0, l(16), l(1)\n"  // first byte past the end
      "imm_atomic_iadd r0.x, u0, l(0xfffffffc), l(1)\n"  // +4 wraps in 32 bits
      "atomic_or u0, l(0x7ffffffc), l(-1)\n"
      "imm_atomic_exch r0.x, u1, l(2, 0, 0, 0), l(99)\n"  // struct == elements
      "atomic_iadd u1, l(0xffffffff, 4, 0, 0), l(1)\n"
      "atomic_umax u2, l(2, 0, 0, 0), l(-1)\n"  // x == width
      "atomic_umax u2, l(0, 2, 0, 0), l(-1)\n"  // y == height
      "atomic_umax u2, l(0x80000000, 1, 0, 0), l(-1)\n"
      "atomic_iadd u3, l(3, 0, 0, 0), l(1)\n"  // element == NumElements
      "imm_atomic_iadd r0.x, u3, l(0xffffffff, 0, 0, 0), l(1)\n"));
  for (const Fast& mode : kModes) {
    const isa::Outcome o = RunFast(c, mode);
    ASSERT_EQ(o.uavs.size(), 4u);
    EXPECT_EQ(o.uavs[0].words, Ramp(10, 4));
    EXPECT_EQ(o.uavs[1].words, Ramp(20, 4));
    EXPECT_EQ(o.uavs[2].words, Ramp(30, 4));
    EXPECT_EQ(o.uavs[3].words, Ramp(40, 3));
    ASSERT_EQ(o.trace.size(), 10u);
    for (const isa::AtomicEvent& e : o.trace) {
      EXPECT_EQ(e.address, isa::AddressClass::kSkip)
          << "instruction " << e.instruction;
    }
    ExpectAllowed(c, o);
  }
}

TEST(FastTarget, LastInBoundsWordsAreHit) {  // the other side of E-12/E-14/E-18
  const std::string uavs =
      RawUav(0, 4) +
      "[uav u1]\nkind structured\nstride 8\nelements 2\n"
      "[uav u2]\nkind typed\ndim texture2d\nformat r32_uint\nsize 2, 2\n";
  const isa::Case c =
      Parse(CaseText(1, 1, uavs,
                     "dcl_uav_raw u0\ndcl_uav_structured u1, 8\n"
                     "dcl_uav_typed_texture2d (uint,uint,uint,uint) u2\n",
                     "atomic_iadd u0, l(12), l(5)\n"
                     "atomic_iadd u1, l(1, 4, 0, 0), l(6)\n"
                     "atomic_iadd u2, l(1, 1, 0, 0), l(7)\n"));
  const isa::Outcome o = RunFast(c);
  EXPECT_EQ(o.uavs[0].words, (std::vector<uint32_t>{0, 0, 0, 5}));
  EXPECT_EQ(o.uavs[1].words, (std::vector<uint32_t>{0, 0, 0, 6}));
  EXPECT_EQ(o.uavs[2].words, (std::vector<uint32_t>{0, 0, 0, 7}));
}

TEST(FastTarget, MisalignedAtomicsWriteNothingOutsideTheirUav) {  // E-13, E-14
  // u0 and u2 are poisoned (any contents allowed); their neighbours u1 and
  // u3 must stay as they were, including for offsets near the end of u0.
  const std::string uavs =
      RawUav(0, 4, "ramp(10, 1, 4)") + RawUav(1, 4, "ramp(50, 1, 4)") +
      "[uav u2]\nkind structured\nstride 8\nelements 2\ndata ramp(20, 1, 4)\n" +
      RawUav(3, 4, "ramp(60, 1, 4)");
  const isa::Case c = Parse(CaseText(
      1, 4, uavs,
      "dcl_uav_raw u0\ndcl_uav_raw u1\ndcl_uav_structured u2, 8\ndcl_uav_raw "
      "u3\n"
      "dcl_input vThreadIDInGroupFlattened\ndcl_temps 2\n",
      // offsets 1, 5, 9, 13 (the last would span bytes 13..16, past the end)
      "imad r0.x, vThreadIDInGroupFlattened.x, l(4), l(1)\n"
      "imm_atomic_exch r1.x, u0, r0.x, l(0xdeadbeef)\n"
      "atomic_iadd u0, l(15), l(1)\n"
      "atomic_iadd u2, l(1, 6, 0, 0), l(1)\n"  // misaligned structured offset
      "imm_atomic_or r1.y, u2, l(1, 8, 0, 0), l(-1)\n"  // offset == stride
      "atomic_iadd u2, l(0, 0xfffffffd, 0, 0), l(1)\n"));
  for (const Fast& mode : kModes) {
    const isa::Outcome o = RunFast(c, mode);
    ASSERT_EQ(o.uavs.size(), 4u);
    EXPECT_EQ(o.uavs[1].words, Ramp(50, 4));
    EXPECT_EQ(o.uavs[3].words, Ramp(60, 4));
    ExpectAllowed(c, o);
  }
}

TEST(FastTarget, StructuredIndexWrappingIn32BitsSkips) {  // E-17
  // stride 16: 0x40000001 * 4 words wraps to word 4 (struct 1) in 32 bits.
  const isa::Case c = Parse(
      CaseText(1, 1,
               "[uav u0]\nkind structured\nstride 16\nelements 4\ndata "
               "ramp(100, 1, 16)\n",
               "dcl_uav_structured u0, 16\ndcl_temps 1\n",
               "imm_atomic_iadd r0.x, u0, l(0x40000001, 0, 0, 0), l(1000)\n"
               "atomic_xor u0, l(0x40000001, 4, 0, 0), l(-1)\n"
               "imm_atomic_exch r0.y, u0, l(0x40000000, 12, 0, 0), l(7)\n"));
  for (const Fast& mode : kModes) {
    const isa::Outcome o = RunFast(c, mode);
    EXPECT_EQ(o.uavs[0].words, Ramp(100, 16));
    for (const isa::AtomicEvent& e : o.trace)
      EXPECT_EQ(e.address, isa::AddressClass::kSkip);
    ExpectAllowed(c, o);
  }
  // The injected vkd3d/DXVK behaviour writes struct 1: this case sees it.
  Fast wrap;
  wrap.inject = "structured-index-wrap32";
  const isa::Outcome bad = RunFast(c, wrap);
  EXPECT_EQ(bad.uavs[0].words[4], 104u + 1000u);
  EXPECT_EQ(bad.uavs[0].words[5], ~105u);
  EXPECT_EQ(bad.uavs[0].words[3], 7u);
}

TEST(FastTarget, TypedExtentsPerDimension) {  // spec 1.2, E-18, E-19, E-20
  const std::string uavs =
      "[uav u0]\nkind typed\ndim texture2d\nformat r32_uint\nsize 4, 3\n"
      "[uav u1]\nkind typed\ndim texture2darray\nformat r32_uint\nsize 2, 2, "
      "3\n"
      "[uav u2]\nkind typed\ndim texture3d\nformat r32_uint\nsize 2, 2, 2\n"
      "[uav u3]\nkind typed\ndim texture1darray\nformat r32_sint\nsize 3, 2\n"
      "[uav u4]\nkind typed\ndim buffer\nformat r32_uint\nsize 5\n"
      "[uav u5]\nkind typed\ndim texture1d\nformat r32_uint\nsize 4\n";
  const std::string decls =
      "dcl_uav_typed_texture2d (uint,uint,uint,uint) u0\n"
      "dcl_uav_typed_texture2darray (uint,uint,uint,uint) u1\n"
      "dcl_uav_typed_texture3d (uint,uint,uint,uint) u2\n"
      "dcl_uav_typed_texture1darray (sint,sint,sint,sint) u3\n"
      "dcl_uav_typed_buffer (uint,uint,uint,uint) u4\n"
      "dcl_uav_typed_texture1d (uint,uint,uint,uint) u5\n";
  const std::string body =
      "atomic_iadd u0, l(3, 2, 0, 0), l(1)\n"  // word 11
      "atomic_iadd u0, l(1, 1, 7, 7), l(2)\n"  // word 5; z, w ignored
      "atomic_iadd u0, l(4, 0, 0, 0), l(100)\n"
      "atomic_iadd u0, l(0, 3, 0, 0), l(100)\n"
      "atomic_iadd u1, l(1, 1, 2, 0), l(3)\n"    // word 11
      "atomic_iadd u1, l(1, 0, 1, 0), l(4)\n"    // word 5
      "atomic_iadd u1, l(0, 0, 3, 0), l(100)\n"  // slice == ArraySize
      "atomic_iadd u1, l(0, 2, 0, 0), l(100)\n"
      "atomic_iadd u1, l(2, 0, 0, 0), l(100)\n"
      "atomic_iadd u2, l(1, 1, 1, 0), l(5)\n"    // word 7
      "atomic_iadd u2, l(1, 0, 1, 0), l(6)\n"    // word 5
      "atomic_iadd u2, l(0, 0, 2, 0), l(100)\n"  // z == depth
      "atomic_iadd u3, l(2, 1, 0, 0), l(7)\n"    // word 5
      "atomic_iadd u3, l(0, 1, 9, 0), l(8)\n"    // word 3
      "atomic_iadd u3, l(0, 2, 0, 0), l(100)\n"  // slice == ArraySize
      "atomic_iadd u3, l(3, 0, 0, 0), l(100)\n"
      "atomic_iadd u4, l(4, 0xffffffff, 0, 0), l(9)\n"  // word 4
      "atomic_iadd u4, l(5, 0, 0, 0), l(100)\n"
      "atomic_iadd u5, l(3, 99, 99, 99), l(10)\n"  // word 3
      "atomic_iadd u5, l(4, 0, 0, 0), l(100)\n";
  const isa::Case c = Parse(CaseText(1, 1, uavs, decls, body));
  const isa::Outcome o = RunFast(c);
  auto only = [](size_t n, std::vector<std::pair<size_t, uint32_t>> set) {
    std::vector<uint32_t> v(n, 0);
    for (auto [i, x] : set) v[i] = x;
    return v;
  };
  EXPECT_EQ(o.uavs[0].words, only(12, {{11, 1}, {5, 2}}));
  EXPECT_EQ(o.uavs[1].words, only(12, {{11, 3}, {5, 4}}));
  EXPECT_EQ(o.uavs[2].words, only(8, {{7, 5}, {5, 6}}));
  EXPECT_EQ(o.uavs[3].words, only(6, {{5, 7}, {3, 8}}));
  EXPECT_EQ(o.uavs[4].words, only(5, {{4, 9}}));
  EXPECT_EQ(o.uavs[5].words, only(4, {{3, 10}}));
  ExpectMatchesOracle(o, RunOn(c, "oracle"), 47);
  ExpectAllowed(c, o);
}

// ---------------------------------------------------------------------------
// Budgets.

TEST(FastTarget, EndlessLoopExceedsTheBudget) {
  Fast small;
  small.max_steps = 1000;
  const std::string decls =
      "dcl_uav_raw u0\ndcl_input vThreadIDInGroupFlattened\ndcl_temps 1\n";
  // Every lane, and one lane of 32 with the others done.
  for (const char* body : {"loop\nendloop\n",
                           "if_z vThreadIDInGroupFlattened.x\nloop\n"
                           "atomic_iadd u0, l(0), l(1)\nendloop\nendif\n"}) {
    const isa::Case c = Parse(CaseText(2, 32, RawUav(0, 1), decls, body));
    for (Fast mode : kModes) {
      mode.max_steps = 1000;
      const isa::Outcome o = RunOn(c, "fast", mode);
      EXPECT_EQ(o.status, isa::RunStatus::kBudgetExceeded) << body;
    }
  }
  // A loop that ends well within the budget is not cut short.
  const isa::Case finite = Parse(
      CaseText(1, 4, RawUav(0, 1), decls,
               "mov r0.x, l(0)\nloop\nuge r0.y, r0.x, l(50)\nbreakc_nz r0.y\n"
               "iadd r0.x, r0.x, l(1)\natomic_iadd u0, l(0), l(1)\nendloop\n"));
  Fast enough;
  enough.max_steps = 1000;
  const isa::Outcome o = RunFast(finite, enough);
  EXPECT_EQ(o.uavs[0].words[0], 200u);
}

// A thread's own budget ends an endless loop after that many iterations,
// long before the wave's budget, on the fast target and the oracle alike;
// a loop within it runs to its end.
TEST(FastTarget, AThreadsBudgetEndsAnEndlessLoopEarly) {
  const std::string decls =
      "dcl_uav_raw u0\ndcl_input vThreadIDInGroupFlattened\ndcl_temps 1\n";
  for (const char* body : {"loop\natomic_iadd u0, l(0), l(1)\nendloop\n",
                           "if_z vThreadIDInGroupFlattened.x\nloop\n"
                           "atomic_iadd u0, l(0), l(1)\nendloop\nendif\n"}) {
    const isa::Case c = Parse(CaseText(1, 32, RawUav(0, 1), decls, body));
    for (const char* target : {"fast", "oracle"}) {
      Fast mode;
      mode.max_steps_per_thread = 100;
      const isa::Outcome o = RunOn(c, target, mode);
      EXPECT_EQ(o.status, isa::RunStatus::kBudgetExceeded) << target << "\n"
                                                           << body;
      // At most 101 bodies per lane ran, not the wave's 2^20 steps.
      EXPECT_LE(o.trace.size(), 32u * 101) << target << "\n" << body;
    }
  }
  const isa::Case finite = Parse(
      CaseText(1, 4, RawUav(0, 1), decls,
               "mov r0.x, l(0)\nloop\nuge r0.y, r0.x, l(50)\nbreakc_nz r0.y\n"
               "iadd r0.x, r0.x, l(1)\natomic_iadd u0, l(0), l(1)\nendloop\n"));
  Fast enough;
  enough.max_steps_per_thread = 51;  // iterations; the oracle's steps are more
  const isa::Outcome o = RunFast(finite, enough);
  EXPECT_EQ(o.uavs[0].words[0], 200u);
  enough.max_steps_per_thread = 49;
  EXPECT_EQ(RunOn(finite, "fast", enough).status,
            isa::RunStatus::kBudgetExceeded);
}

// ---------------------------------------------------------------------------
// Indexable temps.

TEST(FastTarget, IndexableTempWithRelativeIndex) {
  // x0 has 4 elements of 4 components. Per thread t: k = t & 3,
  // x0[k].y += t; then read x0[(t & 1) + 2]; an atomic's dst0 goes to
  // x0[k + 0].z through a relative index too.
  const isa::Case c = Parse(CaseText(
      1, 8, RawUav(0, 8 * 4) + RawUav(1, 8, "ramp(500, 1, 8)"),
      "dcl_uav_raw u0\ndcl_uav_raw u1\ndcl_input vThreadIDInGroupFlattened\n"
      "dcl_temps 3\ndcl_indexableTemp x0[4], 4\n",
      "mov r0.x, vThreadIDInGroupFlattened.x\n"
      "and r0.y, r0.x, l(3)\n"
      "and r0.z, r0.x, l(1)\n"
      "ishl r0.w, r0.x, l(2)\n"
      "mov x0[0].xyzw, l(10, 11, 12, 13)\n"
      "mov x0[1].xyzw, l(20, 21, 22, 23)\n"
      "mov x0[2].xyzw, l(30, 31, 32, 33)\n"
      "mov x0[3].xyzw, l(40, 41, 42, 43)\n"
      "iadd x0[r0.y].y, x0[r0.y].y, r0.x\n"
      "mov r1.xyzw, x0[r0.z + 2].xyzw\n"
      "imm_atomic_exch x0[r0.y].z, u1, r0.w, l(0)\n"
      "mov r2.xy, x0[r0.y].yzyy\n"
      "ishl r2.z, r0.x, l(4)\n"
      "store_raw u0.xyzw, r2.z, r1.xyzw\n"
      "iadd r2.z, r2.z, l(8)\n"
      "store_raw u0.xy, r2.z, r2.xyxx\n"));
  const isa::Outcome want = RunOn(c, "oracle");
  for (const Fast& mode : kModes) {
    const isa::Outcome o = RunFast(c, mode);
    for (uint32_t t = 0; t < 8; ++t) {
      const uint32_t k = t & 3, read = (t & 1) + 2;
      const uint32_t base = (read + 1) * 10;
      const uint32_t y = base + 1 + (read == k ? t : 0);
      const uint32_t* w = &o.uavs[0].words[t * 4];
      // r1 = x0[read] (x, y, z) then overwritten by the second store's .xy.
      EXPECT_EQ(w[0], base) << "t " << t;
      EXPECT_EQ(w[1], y) << "t " << t;
      EXPECT_EQ(w[2], (k + 1) * 10 + 1 + t) << "t " << t;  // x0[k].y
      EXPECT_EQ(w[3], 500 + t) << "t " << t;               // x0[k].z = old
    }
    EXPECT_EQ(o.uavs[1].words, std::vector<uint32_t>(8, 0));
    ExpectMatchesOracle(o, want, 8 * 4 + 8);
  }
}

// ---------------------------------------------------------------------------
// The trace.

TEST(FastTarget, TraceHasOneEventPerDynamicAtomicWithOccurrences) {
  // Thread t (of 4, in 2 groups) loops t + 1 times: imm_atomic_iadd 1 on its
  // own word every iteration, atomic_or on word 8 on even iterations only,
  // and an atomic that never runs.
  const isa::Case c =
      Parse(CaseText(2, 4, RawUav(0, 9, "ramp(100, 10, 8)"),
                     "dcl_uav_raw u0\ndcl_input vThreadID.x\ndcl_input "
                     "vThreadIDInGroupFlattened\n"
                     "dcl_temps 3\n",
                     "mov r0.x, l(0)\n"
                     "ishl r0.y, vThreadID.x, l(2)\n"
                     "loop\n"
                     "  ult r1.x, vThreadIDInGroupFlattened.x, r0.x\n"
                     "  breakc_nz r1.x\n"
                     "  imm_atomic_iadd r2.x, u0, r0.y, l(1)\n"
                     "  and r1.y, r0.x, l(1)\n"
                     "  if_z r1.y\n"
                     "    atomic_or u0, l(32), vThreadID.x\n"
                     "  endif\n"
                     "  ieq r1.z, r0.x, l(99)\n"
                     "  if_nz r1.z\n"
                     "    atomic_iadd u0, l(0), l(1)\n"
                     "  endif\n"
                     "  iadd r0.x, r0.x, l(1)\n"
                     "endloop\n"));
  const uint32_t iadd = InstructionIndex(c, "imm_atomic_iadd");
  const uint32_t or_ = InstructionIndex(c, "atomic_or");
  for (const Fast& mode : kModes) {
    const isa::Outcome o = RunFast(c, mode);
    ASSERT_TRUE(o.has_trace);
    // iadd: t + 1 per thread = 2 * (1 + 2 + 3 + 4); or: ceil((t + 1) / 2).
    EXPECT_EQ(o.trace.size(), 2u * 10 + 2u * (1 + 1 + 2 + 2));
    std::set<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>> seen;
    for (const isa::AtomicEvent& e : o.trace) {
      const uint32_t t = e.thread[0], g = e.group[0];
      const uint32_t global = g * 4 + t;
      EXPECT_EQ(e.file, isa::RegFile::kUav);
      EXPECT_EQ(e.slot, 0u);
      EXPECT_EQ(e.address, isa::AddressClass::kInBounds);
      ASSERT_TRUE(e.instruction == iadd || e.instruction == or_)
          << e.instruction;
      EXPECT_TRUE(seen.insert({e.instruction, g, t, e.occurrence}).second)
          << "duplicate occurrence " << e.occurrence;
      if (e.instruction == iadd) {
        EXPECT_LE(e.occurrence, t);
        EXPECT_EQ(e.word, global);
        EXPECT_EQ(e.src0, 1u);
        EXPECT_EQ(e.returned, 100 + 10 * global + e.occurrence);  // own word
      } else {
        EXPECT_LE(2 * e.occurrence, t);
        EXPECT_EQ(e.word, 8u);
        EXPECT_EQ(e.src0, global);
      }
    }
    for (uint32_t g = 0; g < 2; ++g) {
      for (uint32_t t = 0; t < 4; ++t) {
        for (uint32_t i = 0; i <= t; ++i) {
          EXPECT_TRUE(seen.count({iadd, g, t, i}))
              << g << "/" << t << " #" << i;
          if (i % 2 == 0)
            EXPECT_TRUE(seen.count({or_, g, t, i / 2})) << g << "/" << t;
        }
      }
    }
    ExpectAllowed(c, o);
  }
}

TEST(FastTarget, NoTraceWhenNotAsked) {
  const isa::Case c = Parse(CaseText(1, 4, RawUav(0, 1), "dcl_uav_raw u0\n",
                                     "atomic_iadd u0, l(0), l(1)\n"));
  RunOptions o;
  o.target = "fast";
  o.target_options.trace = false;
  absl::StatusOr<isa::Outcome> out = RunCase(c, o);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_FALSE(out->has_trace);
  EXPECT_TRUE(out->trace.empty());
  EXPECT_EQ(out->uavs[0].words[0], 4u);
}

// ---------------------------------------------------------------------------
// Determinism and options.

TEST(FastTarget, DeterministicModeRepeatsItself) {
  // Exchange chains and cmp_exch races across 4 groups: many legal outcomes.
  const isa::Case c = Parse(CaseText(
      4, 32, RawUav(0, 4) + RawUav(1, 128) + RawUav(2, 128),
      "dcl_uav_raw u0\ndcl_uav_raw u1\ndcl_uav_raw u2\ndcl_input vThreadID.x\n"
      "dcl_temps 3\n",
      "iadd r0.x, vThreadID.x, l(100)\n"
      "ishl r0.y, vThreadID.x, l(2)\n"
      "imm_atomic_exch r1.x, u0, l(0), r0.x\n"
      "imm_atomic_cmp_exch r1.y, u0, l(4), r1.x, r0.x\n"
      "imm_atomic_iadd r1.z, u0, l(8), r0.x\n"
      "store_raw u1.x, r0.y, r1.x\n"
      "store_raw u2.x, r0.y, r1.y\n"));
  for (int threads : {0, 3}) {
    Fast f;
    f.threads = threads;  // ignored when deterministic
    const isa::Outcome a = RunFast(c), b = RunFast(c, f);
    EXPECT_EQ(a.uavs, b.uavs);
    EXPECT_EQ(a.trace, b.trace);
    ExpectAllowed(c, a);
  }
}

TEST(FastTarget, UnknownInjectionIsInvalidArgument) {
  RunOptions o;
  o.target = "fast";
  for (const char* name : {"no-such-bug", "list", "IMAX-UNSIGNED"}) {
    o.target_options.flags["inject"] = name;
    auto target = MakeTarget(o);
    ASSERT_FALSE(target.ok()) << name;
    EXPECT_EQ(target.status().code(), absl::StatusCode::kInvalidArgument)
        << name;
  }
  o.target_options.flags["inject"] = "";
  EXPECT_TRUE(MakeTarget(o).ok());
  o.target_options.flags["inject"] = "imax-unsigned";
  EXPECT_TRUE(MakeTarget(o).ok());
}

}  // namespace
}  // namespace atomfuzz::fuzz
