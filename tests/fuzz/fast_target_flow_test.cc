// Control flow with divergent lanes (loops, switch, break, continue, ret),
// and ALU results, on the fast target compared word for word with the
// oracle's outcome wherever the oracle defines a word.
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "isa/case_file.h"
#include "tests/fuzz/fast_testing.h"

namespace atomfuzz::fuzz {
namespace {

using testutil::CaseText;
using testutil::ExpectAllowed;
using testutil::ExpectMatchesOracle;
using testutil::Fast;
using testutil::kModes;
using testutil::Parse;
using testutil::RawUav;
using testutil::RunFast;
using testutil::RunOn;

struct FlowCase {
  const char* name;
  const char* body;  // t = r0.x (flattened id), out = r7.x (byte offset of
                     // the thread's 4 words in u0); u1 counts atomics
};

constexpr char kFlowPrologue[] =
    "mov r0.x, vThreadIDInGroupFlattened.x\n"
    "imad r7.x, vThreadID.x, l(16), l(0)\n";

const FlowCase kFlowCases[] = {
    {"loop_break_continue",
     // i counts to min(t, 10); odd i continue before summing; even sum.
     "mov r1.xyzw, l(0, 0, 0, 0)\n"
     "loop\n"
     "  uge r2.x, r1.x, r0.x\n"
     "  breakc_nz r2.x\n"
     "  iadd r1.x, r1.x, l(1)\n"
     "  and r2.y, r1.x, l(1)\n"
     "  continuec_nz r2.y\n"
     "  iadd r1.y, r1.y, r1.x\n"
     "  atomic_iadd u1, l(0), l(1)\n"
     "  ieq r2.z, r1.x, l(10)\n"
     "  breakc_nz r2.z\n"
     "  iadd r1.z, r1.z, l(1)\n"
     "endloop\n"
     "store_raw u0.xyz, r7.x, r1.xyzx\n"},
    {"switch_fallthrough_default",
     "and r0.y, r0.x, l(7)\n"
     "mov r1.x, l(0)\n"
     "switch r0.y\n"
     "  case l(0)\n"
     "  case l(1)\n"
     "    iadd r1.x, r1.x, l(1)\n"
     "    break\n"
     "  case l(2)\n"
     "    iadd r1.x, r1.x, l(10)\n"
     "  case l(3)\n"
     "    iadd r1.x, r1.x, l(100)\n"
     "    break\n"
     "  case l(5)\n"
     "    ult r2.x, r0.x, l(16)\n"
     "    if_nz r2.x\n"
     "      iadd r1.x, r1.x, l(5000)\n"
     "      break\n"
     "    endif\n"
     "    iadd r1.x, r1.x, l(6000)\n"
     "  default\n"
     "    iadd r1.x, r1.x, l(1000)\n"
     "    atomic_iadd u1, l(4), l(1)\n"
     "    break\n"
     "endswitch\n"
     "store_raw u0.x, r7.x, r1.x\n"},
    {"switch_in_loop_with_continue",
     "mov r1.xy, l(0, 0, 0, 0)\n"
     "loop\n"
     "  uge r2.x, r1.x, l(6)\n"
     "  breakc_nz r2.x\n"
     "  iadd r1.x, r1.x, l(1)\n"
     "  iadd r2.y, r1.x, r0.x\n"
     "  and r2.y, r2.y, l(3)\n"
     "  switch r2.y\n"
     "    case l(0)\n"
     "      continue\n"
     "    case l(1)\n"
     "      iadd r1.y, r1.y, l(1)\n"
     "      break\n"
     "    case l(2)\n"
     "      ieq r2.z, r0.x, l(6)\n"
     "      breakc_nz r2.z\n"
     "      iadd r1.y, r1.y, l(20)\n"
     "      break\n"
     "    default\n"
     "      iadd r1.y, r1.y, l(300)\n"
     "      break\n"
     "  endswitch\n"
     "  atomic_iadd u1, l(8), l(1)\n"
     "  imad r1.y, r1.y, l(2), l(0)\n"
     "endloop\n"
     "store_raw u0.xy, r7.x, r1.xyxx\n"},
    {"ret_in_branches_and_loops",
     "store_raw u0.x, r7.x, l(1)\n"
     "and r0.y, r0.x, l(3)\n"
     "ieq r2.x, r0.x, l(5)\n"
     "retc_nz r2.x\n"
     "loop\n"
     "  ieq r1.x, r0.y, l(0)\n"
     "  breakc_nz r1.x\n"
     "  ieq r1.y, r0.x, l(7)\n"
     "  retc_nz r1.y\n"
     "  iadd r0.y, r0.y, l(-1)\n"
     "  atomic_iadd u1, l(0), l(1)\n"
     "endloop\n"
     "and r0.z, r0.x, l(1)\n"
     "if_nz r0.z\n"
     "  iadd r3.x, r7.x, l(4)\n"
     "  store_raw u0.x, r3.x, l(7)\n"
     "  ret\n"
     "else\n"
     "  iadd r3.x, r7.x, l(4)\n"
     "  store_raw u0.x, r3.x, l(8)\n"
     "endif\n"
     "atomic_iadd u1, l(4), l(1)\n"
     "ult r2.y, r0.x, l(10)\n"
     "retc_z r2.y\n"
     "iadd r3.x, r7.x, l(8)\n"
     "store_raw u0.x, r3.x, l(9)\n"},
    {"nested_loops_if_else",
     "mov r1.xyz, l(0, 0, 0, 0)\n"
     "loop\n"
     "  uge r2.x, r1.x, l(4)\n"
     "  breakc_nz r2.x\n"
     "  iadd r1.x, r1.x, l(1)\n"
     "  mov r1.y, l(0)\n"
     "  loop\n"
     "    iadd r1.y, r1.y, l(1)\n"
     "    ult r2.y, r0.x, r1.y\n"
     "    breakc_nz r2.y\n"
     "    ult r2.z, r1.y, l(6)\n"
     "    breakc_z r2.z\n"
     "    and r2.w, r1.y, l(1)\n"
     "    if_z r2.w\n"
     "      iadd r1.z, r1.z, r1.y\n"
     "      ieq r3.x, r0.x, l(3)\n"
     "      continuec_z r3.x\n"
     "      iadd r1.z, r1.z, l(100)\n"
     "    else\n"
     "      ishl r1.z, r1.z, l(1)\n"
     "    endif\n"
     "    atomic_iadd u1, l(0), l(1)\n"
     "  endloop\n"
     "  ieq r2.w, r1.x, l(2)\n"
     "  continuec_nz r2.w\n"
     "  imad r1.z, r1.z, l(3), l(1)\n"
     "endloop\n"
     "store_raw u0.xyz, r7.x, r1.xyzx\n"},
    {"nested_switch_default_first",
     "and r0.y, r0.x, l(7)\n"
     "mov r1.xy, l(0, 0, 0, 0)\n"
     "switch r0.y\n"
     "  default\n"
     "  case l(6)\n"
     "    iadd r1.x, r1.x, l(1)\n"
     "  case l(1)\n"
     "    iadd r1.x, r1.x, l(10)\n"
     "    switch r0.x\n"
     "      case l(1)\n"
     "        mov r1.y, l(5)\n"
     "        break\n"
     "      case l(9)\n"
     "      case l(17)\n"
     "        mov r1.y, l(6)\n"
     "      default\n"
     "        iadd r1.y, r1.y, l(100)\n"
     "        break\n"
     "    endswitch\n"
     "    atomic_iadd u1, l(0), l(1)\n"
     "    break\n"
     "  case l(3)\n"
     "    break\n"
     "endswitch\n"
     "switch r0.x\n"
     "  case l(100)\n"
     "    mov r1.x, l(1)\n"
     "    break\n"
     "endswitch\n"
     "store_raw u0.xy, r7.x, r1.xyxx\n"},
    {"divergent_atomic_returns_own_word",
     // Each thread owns word t of u2: its returns are order-independent.
     "mov r1.xzw, l(0, 0, 0, 0)\n"
     "ishl r1.y, vThreadID.x, l(2)\n"
     "loop\n"
     "  uge r2.x, r1.x, r0.x\n"
     "  breakc_nz r2.x\n"
     "  and r2.y, r1.x, l(1)\n"
     "  if_nz r2.y\n"
     "    imm_atomic_iadd r1.z, u2, r1.y, l(3)\n"
     "  else\n"
     "    imm_atomic_xor r1.z, u2, r1.y, l(0x100)\n"
     "  endif\n"
     "  iadd r1.w, r1.w, r1.z\n"
     "  iadd r1.x, r1.x, l(1)\n"
     "endloop\n"
     "store_raw u0.xy, r7.x, r1.zwzz\n"},
};

class FastTargetFlowTest : public ::testing::TestWithParam<FlowCase> {};

TEST_P(FastTargetFlowTest, MatchesTheOracle) {
  const std::string uavs = RawUav(0, 2 * 32 * 4) + RawUav(1, 4) + RawUav(2, 64);
  const isa::Case c =
      Parse(CaseText(2, 32, uavs,
                     "dcl_uav_raw u0\ndcl_uav_raw u1\ndcl_uav_raw u2\n"
                     "dcl_input vThreadID.x\ndcl_input "
                     "vThreadIDInGroupFlattened\ndcl_temps 8\n",
                     absl::StrCat(kFlowPrologue, GetParam().body)));
  const isa::Outcome want = RunOn(c, "oracle");
  ASSERT_EQ(want.status, isa::RunStatus::kOk) << want.message;
  for (const Fast& mode : kModes) {
    SCOPED_TRACE(absl::StrCat("deterministic ", mode.deterministic));
    const isa::Outcome o = RunFast(c, mode);
    ExpectMatchesOracle(o, want, 2 * 32 * 4 + 4 + 64);
    ExpectAllowed(c, o);
  }
}

INSTANTIATE_TEST_SUITE_P(Flows, FastTargetFlowTest,
                         ::testing::ValuesIn(kFlowCases),
                         [](const ::testing::TestParamInfo<FlowCase>& info) {
                           return std::string(info.param.name);
                         });

TEST(FastTarget, TwoDestinationMulReadsEverySourceFirst) {  // E-8 for imul/umul
  // imul's hi destination r0.x is the source of component y; umul's lo
  // destination r2.x is the source of component y; and one register names
  // both halves (which stays is undefined: docs/semantics.md).
  const isa::Case c = Parse(CaseText(
      1, 4, RawUav(0, 16),
      "dcl_uav_raw u0\ndcl_input vThreadIDInGroupFlattened\ndcl_temps 4\n",
      "iadd r0.xyzw, vThreadIDInGroupFlattened.xxxx, l(0x10000, 0x20000, "
      "0x30001, 7)\n"
      "mov r1.xyzw, r0.xyzw\n"
      "imul r0.xy, r1.xy, r0.yxxx, l(0x10000, 0x10000, 0, 0)\n"
      "mov r2.xy, r1.zwzz\n"
      "umul r3.xy, r2.xy, r1.zzzz, r2.yxyy\n"
      "mov r3.zw, r1.zzzz\n"
      "imul r3.z, r3.z, r3.w, l(-0x10000)\n"
      "ishl r1.w, vThreadIDInGroupFlattened.x, l(4)\n"
      "store_raw u0.xy, r1.w, r0.xyxx\n"
      "iadd r1.w, r1.w, l(8)\n"
      "store_raw u0.xy, r1.w, r3.yzyy\n"));
  const isa::Outcome want = RunOn(c, "oracle");
  for (const Fast& mode : kModes) {
    const isa::Outcome o = RunFast(c, mode);
    // imul x: hi of (0x20000 + t) * 0x10000 = 2; y: hi of (0x10000 + t) *
    // 0x10000 = 1 (not of 2 * 0x10000).
    for (uint32_t t = 0; t < 4; ++t) {
      EXPECT_EQ(o.uavs[0].words[4 * t], 2u) << t;
      EXPECT_EQ(o.uavs[0].words[4 * t + 1], 1u) << t;
    }
    ExpectMatchesOracle(o, want, 12);
  }
  for (uint32_t t = 0; t < 4; ++t)
    EXPECT_FALSE(want.uavs[0].defined[4 * t + 3]) << t;
}

}  // namespace
}  // namespace atomfuzz::fuzz
