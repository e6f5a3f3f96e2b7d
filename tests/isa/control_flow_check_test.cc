// Block balance and the uniformity analysis behind E-30 (sync_*_t only in
// control flow that is uniform across the group), through ValidateProgram.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "isa/assembler.h"
#include "isa/validator.h"

namespace atomfuzz::isa {
namespace {

using ::testing::Contains;
using ::testing::Each;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// Lines 1-8; a body given to Flow() starts on line 9.
constexpr absl::string_view kPrelude =
    "cs_5_0\n"
    "dcl_uav_raw u0\n"
    "dcl_input vThreadID.x\n"
    "dcl_input vThreadGroupID.x\n"
    "dcl_input vThreadIDInGroup.x\n"
    "dcl_temps 4\n"
    "dcl_tgsm_raw g0, 256\n"
    "dcl_thread_group 64, 1, 1\n";

// Diagnostics of kPrelude + body + "ret", as "t.asm".
std::vector<std::string> Flow(absl::string_view body) {
  absl::StatusOr<Program> p =
      Assemble(absl::StrCat(kPrelude, body, "ret\n"), "t.asm");
  if (!p.ok()) return {absl::StrCat("parse error: ", p.status().message())};
  DiagnosticSink sink("t.asm");
  ValidateProgram(*p, sink);
  std::vector<std::string> out;
  for (const Diagnostic& d : sink.diagnostics()) out.push_back(d.Render());
  return out;
}

std::string Barrier(int line, absl::string_view sync = "sync_g_t") {
  return absl::StrCat(
      "t.asm:", line,
      ":1: expected sync with _t in control flow uniform across the group, "
      "found '",
      sync,
      "' in divergent control flow [sync-in-divergent-flow, E-30, spec "
      "2.2]");
}

// A repeated label: fxc never emits one and translators pick differently
// (a campaign's vkd3d run took the second `case l(1)`, the oracle the first).
TEST(ControlFlowBalance, ACaseValueOrDefaultRepeatedInOneSwitchIsRejected) {
  EXPECT_THAT(
      Flow("switch l(1)\n"  // 9
           "case l(1)\n"    // 10
           "break\n"
           "case l(1)\n"  // 12
           "break\n"
           "default\n"
           "break\n"
           "default\n"  // 16
           "break\n"
           "endswitch\n"),
      ElementsAre(
          "t.asm:12:1: expected a case value not used before in this switch, "
          "found 'case l(1)' [control-flow, spec 3.1]",
          "t.asm:16:1: expected one default in this switch, found 'default' "
          "[control-flow, spec 3.1]"));
  // The same value in a nested switch is its own.
  EXPECT_THAT(
      Flow("switch l(1)\ncase l(1)\nswitch l(1)\ncase l(1)\nbreak\nendswitch\n"
           "break\nendswitch\n"),
      IsEmpty());
}

TEST(ControlFlowSync, VaryingIfRejectsEveryThreadSync) {
  for (absl::string_view sync : {"sync_g_t", "sync_ugroup_t", "sync_uglobal_t",
                                 "sync_ugroup_g_t", "sync_uglobal_g_t"}) {
    EXPECT_THAT(Flow(absl::StrCat("if_nz vThreadID.x\n", sync, "\nendif\n")),
                ElementsAre(Barrier(10, sync)));
  }
  EXPECT_THAT(Flow("if_z vThreadIDInGroup.x\n"
                   "else\n"
                   "  sync_g_t\n"
                   "endif\n"),
              ElementsAre(Barrier(11)));
}

TEST(ControlFlowSync, FencesWithoutTAreFineAnywhere) {  // E-29
  EXPECT_THAT(Flow("if_nz vThreadID.x\n"
                   "  sync_uglobal\n"
                   "  sync_g\n"
                   "  sync_ugroup_g\n"
                   "endif\n"),
              IsEmpty());
}

TEST(ControlFlowSync, GroupUniformConditionsAreFine) {
  EXPECT_THAT(Flow("if_nz vThreadGroupID.x\n"
                   "  sync_g_t\n"
                   "else\n"
                   "  sync_uglobal_t\n"
                   "endif\n"
                   "iadd r0.x, vThreadGroupID.x, l(1)\n"
                   "if_z r0.x\n"
                   "  sync_g_t\n"
                   "endif\n"),
              IsEmpty());
}

TEST(ControlFlowSync, UniformTripCountLoopIsFine) {
  EXPECT_THAT(Flow("mov r0.x, l(0)\n"
                   "loop\n"
                   "  uge r0.y, r0.x, l(4)\n"
                   "  breakc_nz r0.y\n"
                   "  sync_g_t\n"
                   "  iadd r0.x, r0.x, l(1)\n"
                   "endloop\n"
                   "sync_g_t\n"),
              IsEmpty());
}

TEST(ControlFlowSync, LoopBoundByThreadIdIsDivergent) {
  // Line 11 too: in the second iteration some threads have left.
  EXPECT_THAT(Flow("mov r0.x, l(0)\n"
                   "loop\n"
                   "  sync_g_t\n"
                   "  uge r0.y, r0.x, vThreadIDInGroup.x\n"
                   "  breakc_nz r0.y\n"
                   "  sync_g_t\n"
                   "  iadd r0.x, r0.x, l(1)\n"
                   "endloop\n"
                   "sync_g_t\n"),  // after the loop all threads are back
              ElementsAre(Barrier(11), Barrier(14)));
}

TEST(ControlFlowSync, VaryingContinueMakesTheLoopDivergent) {
  EXPECT_THAT(Flow("mov r0.x, l(0)\n"
                   "loop\n"
                   "  uge r0.y, r0.x, l(4)\n"
                   "  breakc_nz r0.y\n"
                   "  iadd r0.x, r0.x, l(1)\n"
                   "  continuec_nz vThreadID.x\n"
                   "  sync_g_t\n"
                   "endloop\n"),
              ElementsAre(Barrier(15)));
}

TEST(ControlFlowSync, CounterOfADivergentLoopIsVarying) {
  EXPECT_THAT(Flow("mov r0.x, l(0)\n"
                   "loop\n"
                   "  breakc_nz vThreadID.x\n"
                   "  iadd r0.x, r0.x, l(1)\n"
                   "  uge r0.y, r0.x, l(4)\n"
                   "  breakc_nz r0.y\n"
                   "endloop\n"
                   "if_nz r0.x\n"
                   "  sync_g_t\n"
                   "endif\n"),
              ElementsAre(Barrier(17)));
}

TEST(ControlFlowSync, InnerDivergentLoopLeavesOuterLoopUniform) {
  EXPECT_THAT(Flow("mov r0.x, l(0)\n"
                   "loop\n"
                   "  uge r0.y, r0.x, l(4)\n"
                   "  breakc_nz r0.y\n"
                   "  loop\n"
                   "    breakc_nz vThreadID.x\n"
                   "    break\n"
                   "  endloop\n"
                   "  sync_g_t\n"
                   "  iadd r0.x, r0.x, l(1)\n"
                   "endloop\n"),
              IsEmpty());
}

TEST(ControlFlowSync, VaryingReturnMakesTheRestDivergent) {
  EXPECT_THAT(Flow("retc_nz vThreadID.x\n"
                   "sync_g_t\n"),
              ElementsAre(Barrier(10)));
  EXPECT_THAT(Flow("if_nz vThreadIDInGroup.x\n"
                   "  ret\n"
                   "endif\n"
                   "sync_g_t\n"),
              ElementsAre(Barrier(12)));
  EXPECT_THAT(Flow("retc_nz vThreadGroupID.x\n"
                   "sync_g_t\n"),
              IsEmpty());
}

TEST(ControlFlowSync, LoopCarriedVaryingValue) {
  // r1.x is uniform on the first pass; the assignment on line 17 reaches the
  // if on line 14 through the back edge.
  EXPECT_THAT(Flow("mov r0.x, l(0)\n"
                   "mov r1.x, l(0)\n"
                   "loop\n"
                   "  uge r0.y, r0.x, l(4)\n"
                   "  breakc_nz r0.y\n"
                   "  if_nz r1.x\n"
                   "    sync_g_t\n"
                   "  endif\n"
                   "  mov r1.x, vThreadID.x\n"
                   "  iadd r0.x, r0.x, l(1)\n"
                   "endloop\n"),
              ElementsAre(Barrier(15)));
}

TEST(ControlFlowSync, VaryingValueTakesTwoBackEdgesToReachTheBarrier) {
  // r1.x turns varying on the first pass, r2.x on the second (from r1.x),
  // and the if on line 15 branches on it only from the third: a walk that
  // stopped once the heads changed no more than once would miss it.
  EXPECT_THAT(Flow("mov r0.x, l(0)\n"
                   "mov r1.x, l(0)\n"
                   "mov r2.x, l(0)\n"
                   "loop\n"
                   "  uge r0.y, r0.x, l(4)\n"
                   "  breakc_nz r0.y\n"
                   "  if_nz r2.x\n"
                   "    sync_g_t\n"
                   "  endif\n"
                   "  mov r2.x, r1.x\n"
                   "  mov r1.x, vThreadID.x\n"
                   "  iadd r0.x, r0.x, l(1)\n"
                   "endloop\n"),
              ElementsAre(Barrier(16)));
}

TEST(ControlFlowSync, LoopsSettleEachInTheirOwnRound) {
  // The first loop settles in one walk (its sync on line 14 stays uniform),
  // the third (line 24) needs three; the second, inside an if, makes r3.x
  // varying only on its second pass, which the third loop's if reads.
  EXPECT_THAT(Flow("mov r0.x, l(0)\n"  // 9
                   "mov r1.x, l(0)\n"
                   "mov r2.x, l(0)\n"
                   "mov r3.x, l(0)\n"
                   "loop\n"        // 13
                   "  sync_g_t\n"  // 14
                   "  breakc_nz r0.x\n"
                   "endloop\n"
                   "if_nz r0.x\n"  // 17
                   "  loop\n"
                   "    mov r3.x, r2.x\n"
                   "    mov r2.x, vThreadID.x\n"
                   "    break\n"
                   "  endloop\n"
                   "endif\n"
                   "loop\n"  // 24
                   "  uge r0.y, r0.x, l(4)\n"
                   "  breakc_nz r0.y\n"
                   "  if_nz r1.x\n"
                   "    sync_g_t\n"  // 28
                   "  endif\n"
                   "  if_nz r3.x\n"
                   "    sync_g_t\n"  // 31
                   "  endif\n"
                   "  mov r1.x, vThreadID.x\n"
                   "  iadd r0.x, r0.x, l(1)\n"
                   "endloop\n"),
              ElementsAre(Barrier(28), Barrier(31)));
}

TEST(ControlFlowSync, ReusedRegisterBecomesUniformAgain) {
  // fxc reuses registers: r0.x holds a thread id, then a uniform counter.
  EXPECT_THAT(Flow("mov r0.x, vThreadID.x\n"
                   "atomic_iadd u0, r0.x, l(1)\n"
                   "mov r0.x, l(0)\n"
                   "loop\n"
                   "  uge r0.y, r0.x, l(4)\n"
                   "  breakc_nz r0.y\n"
                   "  sync_g_t\n"
                   "  iadd r0.x, r0.x, l(1)\n"
                   "endloop\n"),
              IsEmpty());
}

TEST(ControlFlowSync, ComponentsAreTrackedSeparately) {
  EXPECT_THAT(Flow("mov r0.x, vThreadID.x\n"
                   "mov r0.y, l(1)\n"
                   "if_nz r0.y\n"
                   "  sync_g_t\n"
                   "endif\n"
                   "if_nz r0.x\n"
                   "  sync_g_t\n"
                   "endif\n"),
              ElementsAre(Barrier(15)));
}

TEST(ControlFlowSync, JoinsAfterIf) {
  // Written in a divergent if: varying afterwards, whatever the value.
  EXPECT_THAT(Flow("mov r0.x, l(0)\n"
                   "if_nz vThreadID.x\n"
                   "  mov r0.x, l(1)\n"
                   "endif\n"
                   "if_nz r0.x\n"
                   "  sync_g_t\n"
                   "endif\n"),
              ElementsAre(Barrier(14)));
  // Uniform values on both sides of a uniform if stay uniform ...
  EXPECT_THAT(Flow("if_nz vThreadGroupID.x\n"
                   "  mov r0.x, l(1)\n"
                   "else\n"
                   "  mov r0.x, l(2)\n"
                   "endif\n"
                   "if_nz r0.x\n"
                   "  sync_g_t\n"
                   "endif\n"),
              IsEmpty());
  // ... but one varying side is enough.
  EXPECT_THAT(Flow("if_nz vThreadGroupID.x\n"
                   "  mov r0.x, l(1)\n"
                   "else\n"
                   "  mov r0.x, vThreadID.x\n"
                   "endif\n"
                   "if_nz r0.x\n"
                   "  sync_g_t\n"
                   "endif\n"),
              ElementsAre(Barrier(15)));
}

TEST(ControlFlowSync, MemoryResultsAndUnwrittenTempsAreVarying) {
  EXPECT_THAT(Flow("ld_raw r0.x, l(0), g0.xxxx\n"
                   "if_nz r0.x\n"
                   "  sync_g_t\n"
                   "endif\n"
                   "imm_atomic_iadd r1.x, u0, l(0), l(1)\n"
                   "if_nz r1.x\n"
                   "  sync_g_t\n"
                   "endif\n"
                   "if_nz r2.x\n"  // never written: undefined per thread
                   "  sync_g_t\n"
                   "endif\n"
                   "movc r3.x, vThreadID.x, l(1), l(1)\n"
                   "if_nz r3.x\n"
                   "  sync_g_t\n"
                   "endif\n"),
              ElementsAre(Barrier(11), Barrier(15), Barrier(18), Barrier(22)));
}

TEST(ControlFlowSync, SwitchOnAThreadIdIsDivergentUntilEndswitch) {
  EXPECT_THAT(Flow("switch vThreadID.x\n"
                   "  case l(0)\n"
                   "    sync_g_t\n"
                   "    break\n"
                   "  default\n"
                   "    break\n"
                   "endswitch\n"
                   "sync_g_t\n"),
              ElementsAre(Barrier(11)));
}

TEST(ControlFlowSync, BreakOutOfASwitchDoesNotLeaveTheLoop) {
  EXPECT_THAT(Flow("mov r0.x, l(0)\n"
                   "loop\n"
                   "  uge r0.y, r0.x, l(4)\n"
                   "  breakc_nz r0.y\n"
                   "  switch vThreadID.x\n"
                   "    case l(0)\n"
                   "      atomic_iadd u0, l(0), l(1)\n"
                   "      break\n"
                   "    default\n"
                   "      break\n"
                   "  endswitch\n"
                   "  sync_g_t\n"
                   "  iadd r0.x, r0.x, l(1)\n"
                   "endloop\n"),
              IsEmpty());
}

TEST(ControlFlowSync, VaryingBreakInAUniformSwitch) {
  EXPECT_THAT(Flow("switch vThreadGroupID.x\n"
                   "  case l(0)\n"
                   "    sync_g_t\n"
                   "    breakc_nz vThreadID.x\n"
                   "    sync_g_t\n"
                   "    break\n"
                   "  default\n"
                   "    break\n"
                   "endswitch\n"
                   "sync_g_t\n"),
              ElementsAre(Barrier(13)));
}

TEST(ControlFlowSync, ElsePartStartsBeforeTheThenPartsBreak) {
  // A uniform if: the threads in the else part never saw the break.
  EXPECT_THAT(Flow("switch vThreadGroupID.x\n"
                   "  case l(0)\n"
                   "    if_nz vThreadGroupID.x\n"
                   "      breakc_nz vThreadID.x\n"
                   "    else\n"
                   "      sync_g_t\n"
                   "    endif\n"
                   "    sync_g_t\n"
                   "    break\n"
                   "endswitch\n"),
              ElementsAre(Barrier(16)));
}

TEST(ControlFlowSync, DeepNestingIsRefusedAtTheCap) {
  // Past kMaxNesting (atomfuzz's cap, the sync analysis' depth too) each
  // block too deep is a violation, and nothing is analysed further: no
  // crash, no quadratic work (issue 21).
  std::string body;
  for (int i = 0; i < 100; ++i) body += "if_nz vThreadGroupID.x\n";
  body += "sync_g_t\n";
  for (int i = 0; i < 100; ++i) body += "endif\n";
  const std::vector<std::string> flow = Flow(body);
  EXPECT_EQ(flow.size(), static_cast<size_t>(100 - kMaxNesting));
  EXPECT_THAT(flow, Each(HasSubstr("blocks nested (atomfuzz's cap)")));
  std::string loops;
  for (int i = 0; i < 20000; ++i) loops += "loop\nbreak\n";
  for (int i = 0; i < 20000; ++i) loops += "endloop\n";
  const std::vector<std::string> deep = Flow(loops);  // (the sink stops at 100)
  EXPECT_FALSE(deep.empty());
  EXPECT_THAT(deep, Each(HasSubstr("blocks nested (atomfuzz's cap)")));
}

TEST(ControlFlowSync, HugeRegisterNumbersAreVarying) {
  EXPECT_THAT(Flow("mov r9999.x, l(0)\n"
                   "if_nz r9999.x\n"
                   "  sync_g_t\n"
                   "endif\n"),
              Contains(Barrier(11)));
}

std::string Unbalanced(int line, absl::string_view expected,
                       absl::string_view found) {
  return absl::StrCat("t.asm:", line, ":1: expected ", expected, ", found ",
                      found, " [control-flow, spec 3.1]");
}

TEST(ControlFlowBalance, StrayBlockEnds) {
  EXPECT_THAT(
      Flow("else\n"
           "endloop\n"
           "endswitch\n"
           "case l(0)\n"
           "default\n"
           "break\n"
           "continue\n"),
      ElementsAre(Unbalanced(9, "else inside an if without else", "'else'"),
                  Unbalanced(10, "endloop closing a loop", "'endloop'"),
                  Unbalanced(11, "endswitch closing a switch", "'endswitch'"),
                  Unbalanced(12, "case or default directly inside a switch",
                             "'case l(0)'"),
                  Unbalanced(13, "case or default directly inside a switch",
                             "'default'"),
                  Unbalanced(14, "break inside a loop or switch", "'break'"),
                  Unbalanced(15, "continue inside a loop", "'continue'")));
}

TEST(ControlFlowBalance, MismatchedBlocks) {
  EXPECT_THAT(
      Flow("if_nz vThreadGroupID.x\n"
           "else\n"
           "else\n"
           "endif\n"
           "loop\n"
           "  break\n"
           "endif\n"
           "endloop\n"
           "switch vThreadGroupID.x\n"
           "  case l(0)\n"
           "  if_z vThreadGroupID.x\n"
           "    continue\n"
           "    case l(1)\n"
           "  endif\n"
           "endswitch\n"),
      ElementsAre(Unbalanced(11, "else inside an if without else", "'else'"),
                  Unbalanced(15, "endif closing an if", "'endif'"),
                  Unbalanced(20, "continue inside a loop", "'continue'"),
                  Unbalanced(21, "case or default directly inside a switch",
                             "'case l(1)'")));
}

TEST(ControlFlowBalance, UnclosedBlocksSkipTheUniformityCheck) {
  // The structure is unknown, so only the balance is reported.
  EXPECT_THAT(
      Flow("loop\n"
           "  switch vThreadID.x\n"
           "    if_nz vThreadID.x\n"
           "      sync_g_t\n"),
      ElementsAre(Unbalanced(9, "endloop for this loop", "end of program"),
                  Unbalanced(10, "endswitch for this switch", "end of program"),
                  Unbalanced(11, "endif for this if", "end of program")));
}

}  // namespace
}  // namespace atomfuzz::isa
