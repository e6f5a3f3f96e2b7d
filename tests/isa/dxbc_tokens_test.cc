// Token encodings from spec 4.4, 4.6, 4.7 and 4.8: each line is assembled,
// encoded, compared with the DWORDs the spec lists (fxc's own output where
// the model can express it), and decoded back.
#include "isa/dxbc_tokens.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "isa/assembler.h"
#include "isa/dxbc.h"

namespace atomfuzz::isa {
namespace {

// The tokens of one instruction line.
std::vector<uint32_t> Encode(const std::string& line) {
  absl::StatusOr<Program> p = Assemble(absl::StrCat("cs_5_0\n", line), "t.asm");
  EXPECT_TRUE(p.ok()) << p.status();
  if (!p.ok() || p->instructions.size() != 1) return {};
  std::vector<uint32_t> out;
  const absl::Status s = EncodeInstruction(p->instructions[0], out);
  EXPECT_TRUE(s.ok()) << s;
  absl::StatusOr<DecodedInstruction> back = DecodeInstruction(out, {});
  EXPECT_TRUE(back.ok()) << back.status();
  if (back.ok()) {
    EXPECT_EQ(back->inst, p->instructions[0]) << line;
    EXPECT_EQ(back->length, out.size());
  }
  return out;
}

using W = std::vector<uint32_t>;

TEST(DxbcTokensTest, FxcAtomicExamplesOfSpec47) {
  EXPECT_EQ(
      Encode("atomic_iadd g0, l(0), l(-1)"),
      (W{0x070000AD, 0x0011F000, 0, 0x00004001, 0, 0x00004001, 0xFFFFFFFF}));
  EXPECT_EQ(Encode("imm_atomic_alloc r0.x, u0"),
            (W{0x050000B2, 0x00100012, 0, 0x0011E000, 0}));
  EXPECT_EQ(Encode("atomic_iadd g0, r0.xyxx, l(1)"),
            (W{0x070000AD, 0x0011F000, 0, 0x00100046, 0, 0x00004001, 1}));
  EXPECT_EQ(Encode("sync_g_t"), (W{0x010018BE}));
  EXPECT_EQ(Encode("ret"), (W{0x0100003E}));
  // Spec 4.9 (accepted by vkd3d-shader 1.2).
  EXPECT_EQ(Encode("imm_atomic_iadd r0.y, u0, r0.x, l(1)"),
            (W{0x090000B4, 0x00100022, 0, 0x0011E000, 0, 0x0010000A, 0,
               0x00004001, 1}));
  EXPECT_EQ(Encode("store_raw u0.x, r0.x, r0.y"),
            (W{0x070000A6, 0x0011E012, 0, 0x0010000A, 0, 0x0010001A, 0}));
}

TEST(DxbcTokensTest, FxcDeclarationsOfSpec48) {
  EXPECT_EQ(Encode("dcl_uav_structured_opc u0, 4"),
            (W{0x0480009E, 0x0011E000, 0, 4}));
  EXPECT_EQ(
      Encode("store_structured u0.x, r0.x, l(0), vThreadID.x"),
      (W{0x080000A8, 0x0011E012, 0, 0x0010000A, 0, 0x00004001, 0, 0x0002000A}));
}

TEST(DxbcTokensTest, DeclarationsOfSpec46) {
  EXPECT_EQ(Encode("dcl_globalFlags refactoringAllowed"), (W{0x0100086A}));
  EXPECT_EQ(Encode("dcl_temps 3"), (W{0x02000068, 3}));
  EXPECT_EQ(Encode("dcl_thread_group 64, 1, 1"), (W{0x0400009B, 64, 1, 1}));
  EXPECT_EQ(Encode("dcl_input vThreadID.xyz"), (W{0x0200005F, 0x00020072}));
  EXPECT_EQ(Encode("dcl_input vThreadGroupID.xy"), (W{0x0200005F, 0x00021032}));
  EXPECT_EQ(Encode("dcl_input vThreadIDInGroup.xy"),
            (W{0x0200005F, 0x00022032}));
  EXPECT_EQ(Encode("dcl_input vThreadIDInGroupFlattened"),
            (W{0x0200005F, 0x00024000}));
  EXPECT_EQ(Encode("dcl_uav_raw u0"), (W{0x0300009D, 0x0011E000, 0}));
  EXPECT_EQ(Encode("dcl_uav_raw_glc u1"), (W{0x0301009D, 0x0011E000, 1}));
  EXPECT_EQ(Encode("dcl_uav_structured_glc_opc u3, 8"),
            (W{0x0481009E, 0x0011E000, 3, 8}));
  EXPECT_EQ(Encode("dcl_uav_typed_buffer (uint,uint,uint,uint) u5"),
            (W{0x0400089C, 0x0011E000, 5, 0x00004444}));
  EXPECT_EQ(Encode("dcl_uav_typed_texture2d (sint,sint,sint,sint) u6"),
            (W{0x0400189C, 0x0011E000, 6, 0x00003333}));
  EXPECT_EQ(
      Encode("dcl_uav_typed_texture2darray_glc (float,float,float,float) u7"),
      (W{0x0401409C, 0x0011E000, 7, 0x00005555}));
  EXPECT_EQ(Encode("dcl_tgsm_raw g0, 4"), (W{0x0400009F, 0x0011F000, 0, 4}));
  EXPECT_EQ(Encode("dcl_tgsm_structured g1, 4, 256"),
            (W{0x050000A0, 0x0011F000, 1, 4, 256}));
}

// Operand forms of spec 4.4, inside instructions that take them.
TEST(DxbcTokensTest, OperandFormsOfSpec44) {
  EXPECT_EQ(Encode("mov r0.w, r0.z")[1], 0x00100082u);
  EXPECT_EQ(Encode("mov r0.xyzw, r0.xxxx")[1], 0x001000F2u);
  EXPECT_EQ(Encode("mov r0.x, r0.w")[3], 0x0010003Au);
  EXPECT_EQ(Encode("mov r0.x, r0.xxxx")[3], 0x00100006u);
  EXPECT_EQ(Encode("mov r0.x, r0.xyzw")[3], 0x00100E46u);
  EXPECT_EQ(Encode("mov r0.x, vThreadGroupID.x")[3], 0x0002100Au);
  EXPECT_EQ(Encode("mov r0.x, vThreadIDInGroupFlattened.x")[3], 0x0002400Au);
  EXPECT_EQ(Encode("imul null, r0.x, r1.x, l(3)")[1], 0x0000D000u);
  EXPECT_EQ(Encode("mov r0.xyzw, l(1, 2, 3, 4)"),
            (W{0x08000036, 0x001000F2, 0, 0x00004002, 1, 2, 3, 4}));
  EXPECT_EQ(Encode("ld_raw r0.x, l(0), g0.xxxx")[5], 0x0011F006u);
  // x1[r2.z + 5]: 2-D, element index immediate + relative (spec 4.4).
  EXPECT_EQ(Encode("mov r0.x, x1[r2.z + 5].y"),
            (W{0x08000036, 0x00100012, 0, 0x0620301A, 1, 5, 0x0010002A, 2}));
}

TEST(DxbcTokensTest, ExtendedOpcodeTokensOfSpec43) {
  EXPECT_EQ(Encode("ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) "
                   "r0.x, l(0), u0.xxxx"),
            (W{0x890000A5, 0x800002C2, 0x00199983, 0x00100012, 0, 0x00004001, 0,
               0x0011E006, 0}));
  EXPECT_EQ(Encode("ld_structured_indexable(structured_buffer, stride=4)"
                   "(mixed,mixed,mixed,mixed) r0.y, r0.x, l(0), u0.xxxx")[1],
            0x80002302u);
  const W typed = Encode(
      "ld_uav_typed_indexable(texture2d)(float,float,float,float) "
      "r0.x, r0.xyzw, u1.xyzw");
  EXPECT_EQ(typed[1], 0x800000C2u);
  EXPECT_EQ(typed[2], 0x00155543u);
  EXPECT_EQ(Encode("ld_uav_typed_indexable(buffer)(uint,uint,uint,uint) r0.x, "
                   "r0.x, u1.xxxx")[2],
            0x00111103u);
  EXPECT_EQ(Encode("ld_uav_typed_indexable(buffer)(sint,sint,sint,sint) r0.x, "
                   "r0.x, u1.xxxx")[2],
            0x000CCCC3u);
}

TEST(DxbcTokensTest, ConditionalsSetTheTestBit) {
  EXPECT_EQ(Encode("if_z r0.x")[0], 0x0300001Fu);
  EXPECT_EQ(Encode("if_nz r0.x")[0], 0x0304001Fu);
  EXPECT_EQ(Encode("breakc_nz r0.z")[0], 0x03040003u);
}

TEST(DxbcTokensTest, RefusesWhatCs50CannotSay) {
  Program p;
  Instruction inst;
  inst.op = Op::kAtomicIAdd;
  Operand u = Uav(0);
  u.relative = RelativeIndex{1, 0};  // u0[r1.x + 0] (E-44)
  inst.operands = {u, Imm(0), Imm(1)};
  std::vector<uint32_t> out;
  absl::Status s = EncodeInstruction(inst, out);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("E-44"), absl::string_view::npos) << s;
  EXPECT_TRUE(out.empty());
  inst.operands = {Uav(0), Imm(0), Imm(1)};
  inst.glc = true;  // not a field of atomic_iadd
  s = EncodeInstruction(inst, out);
  EXPECT_NE(s.message().find("does not use"), absl::string_view::npos) << s;
  inst.glc = false;
  inst.operands[1].swizzle = {1, 1, 1, 1};  // junk a decoder would drop
  EXPECT_FALSE(EncodeInstruction(inst, out).ok());
  inst.operands.pop_back();
  inst.operands[1] = Imm(0);
  EXPECT_NE(EncodeInstruction(inst, out).message().find("3 operands"),
            absl::string_view::npos);
}

}  // namespace
}  // namespace atomfuzz::isa
