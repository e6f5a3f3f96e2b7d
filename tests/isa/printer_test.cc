// The canonical printer (spec 3): exact spellings, indentation, and the two
// round-trip properties Assemble(Print(p)) == p and Print∘Assemble reaching
// a fixed point.
#include "isa/printer.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "isa/assembler.h"
#include "isa/program.h"
#include "isa/spelling.h"
#include "tests/testing/round_trip.h"

namespace atomfuzz::isa {
namespace {

Instruction Make(Op op, OperandList operands) {
  Instruction inst;
  inst.op = op;
  inst.operands = std::move(operands);
  return inst;
}

Operand Sv(RegFile file, Selection sel, std::array<uint8_t, 4> swizzle,
           uint8_t mask = 0) {
  Operand o;
  o.file = file;
  o.selection = sel;
  o.swizzle = swizzle;
  o.mask = mask;
  return o;
}

Operand X(uint32_t n, uint32_t offset, std::optional<RelativeIndex> rel,
          Selection sel, uint8_t mask_or_component) {
  Operand o = Temp(n, sel, mask_or_component);
  o.file = RegFile::kIndexableTemp;
  o.offset = offset;
  o.relative = rel;
  return o;
}

Program ProgramOf(std::vector<Instruction> insts) {
  Program p;
  p.instructions = std::move(insts);
  return p;
}

// ---- Operands ------------------------------------------------------------

TEST(PrintOperandTest, Registers) {
  EXPECT_EQ(PrintOperand(Temp(3, Selection::kMask, 0b0101)), "r3.xz");
  EXPECT_EQ(PrintOperand(Temp(0, Selection::kMask, 0b1111)), "r0.xyzw");
  EXPECT_EQ(PrintOperand(TempSwizzle(12, {3, 2, 1, 0})), "r12.wzyx");
  EXPECT_EQ(PrintOperand(TempSwizzle(0, {0, 0, 0, 0})), "r0.xxxx");
  EXPECT_EQ(PrintOperand(Temp(1, Selection::kSelect1, 3)), "r1.w");
  EXPECT_EQ(PrintOperand(Temp(4294967295u, Selection::kSelect1, 0)),
            "r4294967295.x");
  EXPECT_EQ(PrintOperand(Operand{}), "null");
}

TEST(PrintOperandTest, IndexableTemps) {
  EXPECT_EQ(PrintOperand(X(2, 5, std::nullopt, Selection::kMask, 0b0010)),
            "x2[5].y");
  EXPECT_EQ(PrintOperand(X(1, 2, RelativeIndex{1, 0}, Selection::kSelect1, 3)),
            "x1[r1.x + 2].w");
  EXPECT_EQ(PrintOperand(X(0, 0, RelativeIndex{7, 2}, Selection::kSwizzle, 0)),
            "x0[r7.z + 0].xyzw");
  Operand decl = X(3, 16, std::nullopt, Selection::kNone, 0);
  EXPECT_EQ(PrintOperand(decl), "x3[16]");
}

TEST(PrintOperandTest, Literals) {
  EXPECT_EQ(PrintOperand(Imm(1)), "l(1)");
  EXPECT_EQ(PrintOperand(Imm(0xFFFFFFFFu)), "l(-1)");
  EXPECT_EQ(PrintOperand(Imm(0x80000000u)), "l(0x80000000)");
  EXPECT_EQ(PrintOperand(Imm(0x3F000000u)), "l(0x3f000000)");
  EXPECT_EQ(PrintOperand(Imm(65535)), "l(65535)");
  EXPECT_EQ(PrintOperand(Imm(65536)), "l(0x00010000)");
  EXPECT_EQ(PrintOperand(Imm(0xFFFF0001u)), "l(-65535)");
  EXPECT_EQ(PrintOperand(Imm(0xFFFF0000u)), "l(0xffff0000)");
  EXPECT_EQ(PrintOperand(Imm4(3, 4, 0, 0)), "l(3, 4, 0, 0)");
  EXPECT_EQ(PrintOperand(Imm4(0x7F800000u, 0xFFC00000u, 0xFFFFFFFEu, 7)),
            "l(0x7f800000, 0xffc00000, -2, 7)");
}

TEST(PrintOperandTest, MemoryAndSystemValues) {
  EXPECT_EQ(PrintOperand(Uav(0)), "u0");
  EXPECT_EQ(PrintOperand(Tgsm(17)), "g17");
  Operand store = Uav(1);
  store.selection = Selection::kMask;
  store.mask = 0b1111;
  EXPECT_EQ(PrintOperand(store), "u1.xyzw");
  Operand load = Tgsm(0);
  load.selection = Selection::kSwizzle;
  load.swizzle = {0, 0, 0, 0};
  EXPECT_EQ(PrintOperand(load), "g0.xxxx");
  EXPECT_EQ(
      PrintOperand(Sv(RegFile::kThreadID, Selection::kSwizzle, {0, 1, 2, 0})),
      "vThreadID.xyzx");
  EXPECT_EQ(PrintOperand(Sv(RegFile::kThreadIDInGroupFlattened,
                            Selection::kSelect1, {0, 0, 0, 0})),
            "vThreadIDInGroupFlattened.x");
  EXPECT_EQ(PrintOperand(Sv(RegFile::kThreadGroupID, Selection::kMask,
                            {0, 1, 2, 3}, 0b0011)),
            "vThreadGroupID.xy");
  EXPECT_EQ(PrintOperand(Sv(RegFile::kThreadIDInGroupFlattened,
                            Selection::kNone, {0, 1, 2, 3})),
            "vThreadIDInGroupFlattened");
  EXPECT_EQ(PrintOperand(Number(256)), "256");
}

TEST(PrintOperandTest, DynamicallyIndexedMemory) {
  Operand u = Uav(0);
  u.relative = RelativeIndex{1, 1};
  u.offset = 3;
  EXPECT_EQ(PrintOperand(u), "u0[r1.y + 3]");
  // An immediate index parses (u0[3]); printing it keeps the round trip.
  Operand imm = Uav(2);
  imm.offset = 3;
  EXPECT_EQ(PrintOperand(imm), "u2[3]");
}

// ---- Instructions ----------------------------------------------------------

TEST(PrintInstructionTest, OperandsAreCommaSeparated) {
  EXPECT_EQ(PrintInstruction(Make(Op::kImmAtomicCmpExch,
                                  {Temp(0, Selection::kMask, 0b0010), Uav(0),
                                   Imm(4), Temp(2, Selection::kSelect1, 1),
                                   Temp(2, Selection::kSelect1, 0)})),
            "imm_atomic_cmp_exch r0.y, u0, l(4), r2.y, r2.x");
  EXPECT_EQ(PrintInstruction(Make(Op::kRet, {})), "ret");
}

TEST(PrintInstructionTest, SyncPrintsTheFsSpelling) {
  const std::vector<std::pair<uint8_t, std::string>> expected = {
      {0, "sync"},
      {kSyncThreads, "sync_t"},
      {kSyncTgsm, "sync_g"},
      {kSyncTgsm | kSyncThreads, "sync_g_t"},
      {kSyncUavGroup, "sync_ugroup"},
      {kSyncUavGroup | kSyncThreads, "sync_ugroup_t"},
      {kSyncUavGroup | kSyncTgsm, "sync_ugroup_g"},
      {kSyncUavGroup | kSyncTgsm | kSyncThreads, "sync_ugroup_g_t"},
      {kSyncUavGlobal, "sync_uglobal"},
      {kSyncUavGlobal | kSyncThreads, "sync_uglobal_t"},
      {kSyncUavGlobal | kSyncTgsm, "sync_uglobal_g"},
      {kSyncUavGlobal | kSyncTgsm | kSyncThreads, "sync_uglobal_g_t"},
      // Both UAV bits: fxc's only spelling (E-32).
      {kSyncUavGroup | kSyncUavGlobal, "sync_sat_uglobal"},
      {kSyncUavGroup | kSyncUavGlobal | kSyncThreads, "sync_sat_uglobal_t"},
      {kSyncUavGroup | kSyncUavGlobal | kSyncTgsm, "sync_sat_uglobal_g"},
      {kSyncUavGroup | kSyncUavGlobal | kSyncTgsm | kSyncThreads,
       "sync_sat_uglobal_g_t"},
  };
  ASSERT_EQ(expected.size(), 16u);  // every flag set
  for (const auto& [flags, text] : expected) {
    Instruction inst = Make(Op::kSync, {});
    inst.sync_flags = flags;
    EXPECT_EQ(PrintInstruction(inst), text);
    EXPECT_TRUE(testutil::ProgramRoundTrips(ProgramOf({inst}))) << text;
  }
}

TEST(PrintInstructionTest, TypedUavDeclarations) {
  Instruction inst = Make(Op::kDclUavTyped, {Uav(0)});
  inst.dim = Dim::kTexture2D;
  inst.glc = true;
  inst.types = {ReturnType::kFloat, ReturnType::kFloat, ReturnType::kFloat,
                ReturnType::kFloat};
  EXPECT_EQ(PrintInstruction(inst),
            "dcl_uav_typed_texture2d_glc (float,float,float,float) u0");
  inst.glc = false;
  inst.dim = Dim::kTexture1DArray;
  inst.types = {ReturnType::kUint, ReturnType::kSint, ReturnType::kUnorm,
                ReturnType::kSnorm};
  EXPECT_EQ(PrintInstruction(inst),
            "dcl_uav_typed_texture1darray (uint,sint,unorm,snorm) u0");
}

TEST(PrintInstructionTest, GlcBeforeOpc) {
  Instruction inst = Make(Op::kDclUavStructured, {Uav(3), Number(4)});
  EXPECT_EQ(PrintInstruction(inst), "dcl_uav_structured u3, 4");
  inst.opc = true;
  EXPECT_EQ(PrintInstruction(inst), "dcl_uav_structured_opc u3, 4");
  inst.glc = true;
  EXPECT_EQ(PrintInstruction(inst), "dcl_uav_structured_glc_opc u3, 4");
  Instruction raw = Make(Op::kDclUavRaw, {Uav(1)});
  raw.glc = true;
  EXPECT_EQ(PrintInstruction(raw), "dcl_uav_raw_glc u1");
}

TEST(PrintInstructionTest, GlobalFlagsInBitOrder) {
  Instruction inst = Make(Op::kDclGlobalFlags, {});
  inst.global_flags = kEnable11_1ShaderExtensions | kRefactoringAllowed |
                      kEnableRawAndStructuredBuffers;
  EXPECT_EQ(PrintInstruction(inst),
            "dcl_globalFlags refactoringAllowed | "
            "enableRawAndStructuredBuffers | enable11_1ShaderExtensions");
}

TEST(PrintInstructionTest, EveryGlobalFlagRoundTrips) {
  for (GlobalFlag f : kAllGlobalFlags) {
    Instruction inst = Make(Op::kDclGlobalFlags, {});
    inst.global_flags = f;
    EXPECT_TRUE(testutil::ProgramRoundTrips(ProgramOf({inst})))
        << PrintInstruction(inst);
  }
  Instruction all = Make(Op::kDclGlobalFlags, {});
  all.global_flags = 0xFF;
  EXPECT_TRUE(testutil::ProgramRoundTrips(ProgramOf({all})));
}

TEST(PrintInstructionTest, IndexableLoads) {
  Instruction raw = Make(Op::kLdRaw, {Temp(0, Selection::kMask, 1), Imm(0),
                                      Temp(0, Selection::kSwizzle, 0)});
  raw.operands[2] = Uav(0);
  raw.operands[2].selection = Selection::kSwizzle;
  raw.operands[2].swizzle = {0, 0, 0, 0};
  EXPECT_EQ(PrintInstruction(raw), "ld_raw r0.x, l(0), u0.xxxx");
  raw.indexable = ResourceSuffix{Dim::kRawBuffer, 0};
  EXPECT_EQ(PrintInstruction(raw),
            "ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r0.x, l(0), "
            "u0.xxxx");

  Instruction st = Make(Op::kLdStructured, {Temp(0, Selection::kMask, 0b0010),
                                            Temp(0, Selection::kSelect1, 0),
                                            Imm(0), raw.operands[2]});
  st.indexable = ResourceSuffix{Dim::kStructuredBuffer, 4};
  EXPECT_EQ(PrintInstruction(st),
            "ld_structured_indexable(structured_buffer, stride=4)"
            "(mixed,mixed,mixed,mixed) r0.y, r0.x, l(0), u0.xxxx");
}

// ---- Programs
// ----------------------------------------------------------------

TEST(PrintTest, HeaderAndTrailingNewline) {
  EXPECT_EQ(Print(Program{}), "cs_5_0\n");
  EXPECT_EQ(Print(ProgramOf({Make(Op::kRet, {})})), "cs_5_0\nret\n");
}

TEST(PrintTest, BlocksAreIndentedByTwoSpaces) {
  const Operand c = Temp(0, Selection::kSelect1, 0);
  const Program p = ProgramOf({
      Make(Op::kLoop, {}),
      Make(Op::kIfNz, {c}),
      Make(Op::kBreak, {}),
      Make(Op::kElse, {}),
      Make(Op::kSwitch, {c}),
      Make(Op::kCase, {Imm(1)}),
      Make(Op::kBreak, {}),
      Make(Op::kDefault, {}),
      Make(Op::kBreak, {}),
      Make(Op::kEndSwitch, {}),
      Make(Op::kEndIf, {}),
      Make(Op::kEndLoop, {}),
      Make(Op::kRet, {}),
  });
  EXPECT_EQ(Print(p),
            "cs_5_0\n"
            "loop\n"
            "  if_nz r0.x\n"
            "    break\n"
            "  else\n"
            "    switch r0.x\n"
            "      case l(1)\n"
            "      break\n"
            "      default\n"
            "      break\n"
            "    endswitch\n"
            "  endif\n"
            "endloop\n"
            "ret\n");
  EXPECT_TRUE(testutil::ProgramRoundTrips(p));
}

TEST(PrintTest, UnbalancedBlocksNeverIndentBelowZero) {
  const Program p = ProgramOf({Make(Op::kEndIf, {}), Make(Op::kEndLoop, {}),
                               Make(Op::kElse, {}), Make(Op::kRet, {})});
  EXPECT_EQ(Print(p), "cs_5_0\nendif\nendloop\nelse\n  ret\n");
  EXPECT_TRUE(testutil::ProgramRoundTrips(p));
}

// ---- Round trips
// -------------------------------------------------------------

// Programs built in code, one per concern; Assemble(Print(p)) == p.
TEST(PrintRoundTripTest, ProgramsSurvivePrintThenAssemble) {
  const Operand r0x = Temp(0, Selection::kMask, 1);
  Operand flat =
      Sv(RegFile::kThreadIDInGroupFlattened, Selection::kNone, {0, 1, 2, 3});
  Operand tid_decl =
      Sv(RegFile::kThreadID, Selection::kMask, {0, 1, 2, 3}, 0b0111);
  Instruction typed = Make(Op::kDclUavTyped, {Uav(4)});
  typed.dim = Dim::kTexture3D;
  Instruction sync = Make(Op::kSync, {});
  sync.sync_flags = kSyncUavGroup | kSyncUavGlobal;
  Operand dyn = Uav(1);
  dyn.relative = RelativeIndex{2, 3};
  Operand imm_index = Tgsm(1);
  imm_index.offset = 9;

  const std::vector<Program> programs = {
      Program{},
      ProgramOf({Make(Op::kDclInput, {flat}), Make(Op::kDclInput, {tid_decl}),
                 typed, sync, Make(Op::kRet, {})}),
      ProgramOf({Make(Op::kAtomicIAdd, {dyn, Imm(0), Imm(1)}),
                 Make(Op::kAtomicIAdd, {imm_index, Imm(0), Imm(1)})}),
      ProgramOf(
          {Make(Op::kMov,
                {X(0, 1, RelativeIndex{3, 1}, Selection::kMask, 0b1001),
                 Imm4(0x7F800000u, 0xFFC00000u, 0x80000000u, 0x3F000000u)})}),
      ProgramOf(
          {Make(Op::kIMul, {Operand{}, r0x, Temp(1, Selection::kSelect1, 2),
                            Imm(0xFFFF0000u)})}),
  };
  for (const Program& p : programs) {
    EXPECT_TRUE(testutil::ProgramRoundTrips(p)) << Print(p);
  }
}

struct FixedPointCase {
  const char* name;
  const char* input;      // body after cs_5_0
  const char* canonical;  // Print(Assemble(input)) body
};

class PrintFixedPointTest : public ::testing::TestWithParam<FixedPointCase> {};

TEST_P(PrintFixedPointTest, CanonicalFormIsAFixedPoint) {
  const std::string input = absl::StrCat("cs_5_0\n", GetParam().input, "\n");
  const absl::StatusOr<Program> p = Assemble(input, "t.asm");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(Print(*p), absl::StrCat("cs_5_0\n", GetParam().canonical, "\n"));
  EXPECT_TRUE(testutil::AssemblyIsStable(input));
}

INSTANTIATE_TEST_SUITE_P(
    Spellings, PrintFixedPointTest,
    ::testing::Values(
        FixedPointCase{"SatUgroup", "sync_sat_ugroup_t", "sync_ugroup_t"},
        FixedPointCase{"SatUglobal", "sync_sat_uglobal", "sync_sat_uglobal"},
        FixedPointCase{"OpcGlc", "dcl_uav_structured_opc_glc u0, 4",
                       "dcl_uav_structured_glc_opc u0, 4"},
        FixedPointCase{"Vkd3dInt", "dcl_uav_typed_buffer (int,int,int,int) u0",
                       "dcl_uav_typed_buffer (sint,sint,sint,sint) u0"},
        FixedPointCase{"FloatLiteral", "mov r0.x, l(0.500000)",
                       "mov r0.x, l(0x3f000000)"},
        FixedPointCase{"SpecialFloats",
                       "mov r0.xy, l(1.#INF00, -1.#QNAN0, 0, 0)",
                       "mov r0.xy, l(0x7f800000, 0xffc00000, 0, 0)"},
        FixedPointCase{"HexSmall", "mov r0.x, l(0X10)", "mov r0.x, l(16)"},
        FixedPointCase{"DecimalLarge", "mov r0.x, l(4294967295)",
                       "mov r0.x, l(-1)"},
        FixedPointCase{"BareRelativeIndex", "mov x0[r1.x].y, l(1)",
                       "mov x0[r1.x + 0].y, l(1)"},
        FixedPointCase{"ZeroImmediateIndex", "atomic_iadd u0[0], l(0), l(1)",
                       "atomic_iadd u0, l(0), l(1)"},
        FixedPointCase{"Spacing", "  mov   r0.x ,r1.y//c", "mov r0.x, r1.y"},
        FixedPointCase{"HexNumber", "dcl_temps 0x2", "dcl_temps 2"},
        FixedPointCase{"Indentation", "loop\nbreak\nendloop",
                       "loop\n  break\nendloop"},
        FixedPointCase{"LeadingZeros", "mov r01.x, r002.y", "mov r1.x, r2.y"}),
    [](const ::testing::TestParamInfo<FixedPointCase>& info) {
      return std::string(info.param.name);
    });

}  // namespace
}  // namespace atomfuzz::isa

namespace atomfuzz::isa {
namespace {

TEST(PrinterGlobalFlags, NoFlagsRoundTrips) {
  // A generated program may clear every flag; it must still read back.
  auto p = Assemble("cs_5_0\ndcl_globalFlags\nret\n");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->instructions[0].global_flags, 0);
  EXPECT_EQ(Print(*p), "cs_5_0\ndcl_globalFlags\nret\n");
}

}  // namespace
}  // namespace atomfuzz::isa
