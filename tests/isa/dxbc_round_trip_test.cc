// decode(encode(p)) == p for the program of every case under corpus/ (one
// test per file, so a failure names it), and the table walk: every opcode
// row assembled, encoded, decoded and printed back unchanged.
#include <string>

#include "gtest/gtest.h"
#include "isa/assembler.h"
#include "isa/case_file.h"
#include "isa/dxbc.h"
#include "isa/printer.h"
#include "tests/testing/corpus_walk.h"

namespace atomfuzz::isa {
namespace {

std::vector<std::string> CorpusFiles() {
  return testutil::CorpusCasePaths(testutil::ProjectRootFrom(__FILE__));
}

::testing::AssertionResult RoundTrips(const Program& program) {
  absl::StatusOr<std::vector<uint8_t>> bytes = EncodeDxbc(program);
  if (!bytes.ok()) {
    return ::testing::AssertionFailure() << "encode: " << bytes.status();
  }
  absl::StatusOr<Program> back = DecodeDxbc(*bytes);
  if (!back.ok()) {
    return ::testing::AssertionFailure() << "decode: " << back.status();
  }
  if (!(*back == program)) {
    return ::testing::AssertionFailure() << "decoded program differs:\n"
                                         << Print(*back) << "--- vs ---\n"
                                         << Print(program);
  }
  // The container is canonical: encoding the decoded program gives it back.
  absl::StatusOr<std::vector<uint8_t>> again = EncodeDxbc(*back);
  if (!again.ok() || *again != *bytes) {
    return ::testing::AssertionFailure() << "re-encoding differs";
  }
  return ::testing::AssertionSuccess();
}

class DxbcCorpusTest : public ::testing::TestWithParam<std::string> {};

TEST_P(DxbcCorpusTest, EncodeDecodeIsTheIdentity) {
  const auto root = testutil::ProjectRootFrom(__FILE__);
  absl::StatusOr<Case> c =
      ParseCase(testutil::ReadWholeFile(root / GetParam()), GetParam());
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_TRUE(RoundTrips(c->shader));
}

std::string TestName(const ::testing::TestParamInfo<std::string>& info) {
  return testutil::CorpusTestName(info.param, info.index);
}

INSTANTIATE_TEST_SUITE_P(Corpus, DxbcCorpusTest,
                         ::testing::ValuesIn(CorpusFiles()), TestName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(DxbcCorpusTest);

TEST(DxbcCorpusTest, CorpusIsFound) { EXPECT_GT(CorpusFiles().size(), 50u); }

// One line per row of the opcode table, each shape the model can spell.
constexpr char kEveryShape[] = R"(cs_5_0
dcl_globalFlags refactoringAllowed | enableRawAndStructuredBuffers
dcl_globalFlags
dcl_uav_raw u0
dcl_uav_raw_glc u1
dcl_uav_structured u2, 16
dcl_uav_structured_glc_opc u3, 4
dcl_uav_typed_texture3d_glc (sint,uint,float,mixed) u4
dcl_uav_typed_buffer (unorm,snorm,uint,uint) u5
dcl_tgsm_raw g0, 64
dcl_tgsm_structured g1, 8, 32
dcl_input vThreadID.xyz
dcl_input vThreadIDInGroupFlattened
dcl_input vThreadGroupID
dcl_temps 4
dcl_indexableTemp x0[8], 4
dcl_thread_group 64, 2, 1
mov r0.xyzw, l(1, -1, 0x80000000, 7)
movc r1.xz, r0.x, vThreadID.zyxw, x0[r2.w + 3].yyyy
imul null, r1.y, x0[5].x, l(3)
bfi r3.w, l(4), l(0), vThreadIDInGroupFlattened.x, x0[r0.y + 0].z
if_nz r0.x
else
endif
loop
breakc_z r0.y
continuec_nz r0.z
endloop
switch r0.x
case l(3)
break
default
endswitch
retc_nz r1.x
sync_uglobal_g_t
sync_ugroup
sync
ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r0.x, l(0), u0.xxxx
ld_structured_indexable(structured_buffer, stride=16)(uint,uint,uint,uint) r0.xy, r1.x, l(4), u2.xyxx
ld_uav_typed_indexable(texture3d)(float,float,float,float) r0.x, r0.xyzw, u4.xyzw
ld_raw r0.x, l(0), g0.xxxx
store_structured g1.xy, r0.x, l(0), r1.xyxx
store_uav_typed u4.xyzw, r0.xyzw, l(1, 2, 3, 4)
atomic_cmp_store u0, l(4), r0.y, r0.x
atomic_umin u4, vThreadID.xyzx, r0.x
imm_atomic_exch r0.z, u2, l(3, 4, 0, 0), r0.y
imm_atomic_cmp_exch null, g0, r0.x, l(0), l(1)
imm_atomic_alloc r0.x, u3
imm_atomic_consume r1.w, u3
ret
)";

TEST(DxbcTableWalkTest, EveryShapeRoundTrips) {
  absl::StatusOr<Program> p = Assemble(kEveryShape, "shapes.asm");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_TRUE(RoundTrips(*p));
  absl::StatusOr<Program> back = DecodeDxbc(*EncodeDxbc(*p));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(Print(*back), Print(*p));
}

TEST(DxbcTableWalkTest, EveryOpcodeRowRoundTrips) {
  for (const OpcodeInfo& row : AllOpcodes()) {
    Program p;
    Instruction inst;
    inst.op = row.op;
    for (int i = 0; i < row.operand_count(); ++i) {
      switch (row.operands[static_cast<size_t>(i)].kind) {
        case OperandKind::kDst:
          inst.operands.push_back(Temp(1, Selection::kMask, 0x2));
          break;
        case OperandKind::kSrc:
          inst.operands.push_back(Temp(2, Selection::kSelect1, 3));
          break;
        case OperandKind::kMemDst: {
          Operand o = Uav(1);
          o.selection = Selection::kMask;
          o.mask = 1;
          inst.operands.push_back(o);
          break;
        }
        case OperandKind::kMemSrc: {
          Operand o = Tgsm(1);
          o.selection = Selection::kSwizzle;
          o.swizzle = {0, 0, 0, 0};
          inst.operands.push_back(o);
          break;
        }
        case OperandKind::kMem:
        case OperandKind::kUav: inst.operands.push_back(Uav(3)); break;
        case OperandKind::kTgsm: inst.operands.push_back(Tgsm(2)); break;
        case OperandKind::kInputDecl: {
          Operand o;
          o.file = RegFile::kThreadIDInGroup;
          o.selection = Selection::kMask;
          o.mask = 3;
          inst.operands.push_back(o);
          break;
        }
        case OperandKind::kNumber: inst.operands.push_back(Number(7)); break;
        case OperandKind::kInputPsDecl: {
          Operand o;
          o.file = RegFile::kInput;
          o.index = 2;
          o.selection = Selection::kMask;
          o.mask = 3;
          inst.operands.push_back(o);
          break;
        }
        case OperandKind::kInputName:
          inst.operands.push_back(
              Number(static_cast<uint32_t>(InputName::kPosition)));
          break;
        case OperandKind::kIndexableTempDecl: {
          Operand o;
          o.file = RegFile::kIndexableTemp;
          o.index = 1;
          o.offset = 9;
          inst.operands.push_back(o);
          break;
        }
        case OperandKind::kEnd: break;
      }
    }
    if (row.suffix == Suffix::kDimGlc) inst.dim = Dim::kTexture2D;
    if (row.suffix == Suffix::kInterpolation) {
      inst.interpolation = Interpolation::kLinearNoPerspective;
    }
    p.instructions.push_back(inst);
    EXPECT_TRUE(RoundTrips(p)) << row.mnemonic;
  }
}

}  // namespace
}  // namespace atomfuzz::isa
