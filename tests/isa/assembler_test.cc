// Reading fxc's disassembly (spec 3): every operand form, suffix and
// declaration fxc prints. Error messages are in malformed_input_test.cc.
#include "isa/assembler.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "isa/diagnostics.h"
#include "isa/printer.h"
#include "isa/program.h"
#include "tests/testing/round_trip.h"

namespace atomfuzz::isa {
namespace {

// The instructions of "cs_5_0\n" + body.
std::vector<Instruction> Body(absl::string_view body) {
  absl::StatusOr<Program> p =
      Assemble(absl::StrCat("cs_5_0\n", body, "\n"), "t.asm");
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? p->instructions : std::vector<Instruction>{};
}

// The one instruction on `line`.
Instruction One(absl::string_view line) {
  std::vector<Instruction> insts = Body(line);
  if (insts.size() != 1) {
    ADD_FAILURE() << "expected one instruction from '" << line << "', got "
                  << insts.size();
    return Instruction{};
  }
  return insts[0];
}

// Operand `i` of the one instruction on `line`.
Operand OperandOf(absl::string_view line, size_t i) {
  const Instruction inst = One(line);
  if (i >= inst.operands.size()) {
    ADD_FAILURE() << "no operand " << i << " in '" << line << "'";
    return Operand{};
  }
  return inst.operands[i];
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

// ---- Operands ------------------------------------------------------------

TEST(AssemblerOperandTest, Temps) {
  EXPECT_EQ(OperandOf("mov r3.xz, r12.wzyx", 0),
            Temp(3, Selection::kMask, 0b0101));
  EXPECT_EQ(OperandOf("mov r3.xz, r12.wzyx", 1), TempSwizzle(12, {3, 2, 1, 0}));
  EXPECT_EQ(OperandOf("mov r0.x, r4294967295.y", 1),
            Temp(0xFFFFFFFFu, Selection::kSelect1, 1));
  EXPECT_EQ(OperandOf("mov r007.x, r0.x", 0), Temp(7, Selection::kMask, 1));
}

TEST(AssemblerOperandTest, IndexableTempWithImmediateIndex) {
  Operand expected;
  expected.file = RegFile::kIndexableTemp;
  expected.index = 2;
  expected.offset = 5;
  expected.selection = Selection::kMask;
  expected.mask = 0b0010;
  EXPECT_EQ(OperandOf("mov x2[5].y, l(0)", 0), expected);
}

TEST(AssemblerOperandTest, IndexableTempWithRelativeIndex) {
  const Operand o = OperandOf("mov r0.x, x1[r1.x + 2].w", 1);
  EXPECT_EQ(o.file, RegFile::kIndexableTemp);
  EXPECT_EQ(o.index, 1u);
  ASSERT_TRUE(o.relative.has_value());
  EXPECT_EQ(o.relative->temp, 1u);
  EXPECT_EQ(o.relative->component, 0);
  EXPECT_EQ(o.offset, 2u);
  EXPECT_EQ(o.selection, Selection::kSelect1);
  EXPECT_EQ(o.swizzle[0], 3);

  const Operand bare = OperandOf("mov x0[r7.z].xyzw, l(1)", 0);
  ASSERT_TRUE(bare.relative.has_value());
  EXPECT_EQ(bare.relative->temp, 7u);
  EXPECT_EQ(bare.relative->component, 2);
  EXPECT_EQ(bare.offset, 0u);
}

TEST(AssemblerOperandTest, ScalarLiterals) {
  EXPECT_EQ(OperandOf("mov r0.x, l(1)", 1), Imm(1));
  EXPECT_EQ(OperandOf("mov r0.x, l(-1)", 1), Imm(0xFFFFFFFFu));
  EXPECT_EQ(OperandOf("mov r0.x, l(0x80000000)", 1), Imm(0x80000000u));
  EXPECT_EQ(OperandOf("mov r0.x, l(0.500000)", 1), Imm(0x3F000000u));
  EXPECT_EQ(OperandOf("mov r0.x, l(1.#INF00)", 1), Imm(0x7F800000u));
  EXPECT_EQ(OperandOf("mov r0.x, l(-1.#QNAN0)", 1), Imm(0xFFC00000u));
  EXPECT_EQ(OperandOf("mov r0.x, l(-2147483648)", 1), Imm(0x80000000u));
  EXPECT_EQ(OperandOf("mov r0.x, l(4294967295)", 1), Imm(0xFFFFFFFFu));
  EXPECT_EQ(OperandOf("mov r0.x, l( 7 )", 1), Imm(7));
}

TEST(AssemblerOperandTest, VectorLiterals) {
  EXPECT_EQ(OperandOf("mov r0.xyzw, l(3, 4, 0, 0)", 1), Imm4(3, 4, 0, 0));
  EXPECT_EQ(OperandOf("mov r0.xyzw, l(1.0,-1,0x10,1.#INF00)", 1),
            Imm4(0x3F800000u, 0xFFFFFFFFu, 16, 0x7F800000u));
}

TEST(AssemblerOperandTest, MemoryTargets) {
  EXPECT_EQ(OperandOf("atomic_iadd u5, r0.x, l(1)", 0), Uav(5));
  EXPECT_EQ(OperandOf("atomic_iadd g1, r0.xyxx, l(1)", 0), Tgsm(1));
  EXPECT_EQ(OperandOf("atomic_iadd g1, r0.xyxx, l(1)", 1),
            TempSwizzle(0, {0, 1, 0, 0}));
  EXPECT_EQ(OperandOf("imm_atomic_alloc r0.x, u63", 1), Uav(63));

  Operand store = Uav(1);
  store.selection = Selection::kMask;
  store.mask = 0b0001;
  EXPECT_EQ(OperandOf("store_raw u1.x, r0.y, r1.x", 0), store);

  Operand load = Tgsm(0);
  load.selection = Selection::kSwizzle;
  load.swizzle = {0, 0, 0, 0};
  EXPECT_EQ(OperandOf("ld_raw r0.x, l(0), g0.xxxx", 2), load);
}

// u0[r1.x + 0] is representable so that the validator can reject it (E-44).
TEST(AssemblerOperandTest, DynamicallyIndexedUav) {
  const Operand o = OperandOf("atomic_iadd u0[r1.y + 3], r0.x, l(1)", 0);
  EXPECT_EQ(o.file, RegFile::kUav);
  ASSERT_TRUE(o.relative.has_value());
  EXPECT_EQ(o.relative->temp, 1u);
  EXPECT_EQ(o.relative->component, 1);
  EXPECT_EQ(o.offset, 3u);
}

TEST(AssemblerOperandTest, SystemValues) {
  EXPECT_EQ(OperandOf("atomic_umin u3, vThreadID.xyzx, r0.x", 1),
            Sv(RegFile::kThreadID, Selection::kSwizzle, {0, 1, 2, 0}));
  EXPECT_EQ(OperandOf("mov r0.x, vThreadIDInGroupFlattened.x", 1),
            Sv(RegFile::kThreadIDInGroupFlattened, Selection::kSelect1,
               {0, 0, 0, 0}));
  EXPECT_EQ(OperandOf("mov r0.x, vThreadGroupID.y", 1),
            Sv(RegFile::kThreadGroupID, Selection::kSelect1, {1, 0, 0, 0}));
  EXPECT_EQ(OperandOf("mov r0.xyzw, vThreadIDInGroup.zyxw", 1),
            Sv(RegFile::kThreadIDInGroup, Selection::kSwizzle, {2, 1, 0, 3}));
}

TEST(AssemblerOperandTest, NullDestination) {
  const Instruction inst = One("imul null, r0.x, r1.x, r2.x");
  ASSERT_EQ(inst.operands.size(), 4u);
  EXPECT_EQ(inst.operands[0], Operand{});
  EXPECT_EQ(inst.operands[0].file, RegFile::kNull);
  EXPECT_EQ(inst.operands[1], Temp(0, Selection::kMask, 1));
}

TEST(AssemblerOperandTest, EveryWriteMask) {
  for (uint8_t mask = 1; mask < 16; ++mask) {
    std::string letters;
    for (int c = 0; c < 4; ++c) {
      if (mask & (1u << c)) letters += "xyzw"[c];
    }
    EXPECT_EQ(OperandOf(absl::StrCat("mov r1.", letters, ", l(0)"), 0),
              Temp(1, Selection::kMask, mask))
        << letters;
  }
}

TEST(AssemblerOperandTest, EverySwizzle) {
  for (int s = 0; s < 256; ++s) {
    const std::array<uint8_t, 4> sw = {
        static_cast<uint8_t>(s & 3), static_cast<uint8_t>((s >> 2) & 3),
        static_cast<uint8_t>((s >> 4) & 3), static_cast<uint8_t>((s >> 6) & 3)};
    std::string letters;
    for (uint8_t c : sw) letters += "xyzw"[c];
    EXPECT_EQ(OperandOf(absl::StrCat("mov r0.xyzw, r2.", letters), 1),
              TempSwizzle(2, sw))
        << letters;
  }
}

TEST(AssemblerOperandTest, EverySelectedComponent) {
  for (uint8_t c = 0; c < 4; ++c) {
    const Operand o =
        OperandOf(absl::StrCat("mov r0.x, r9.", std::string(1, "xyzw"[c])), 1);
    EXPECT_EQ(o, Temp(9, Selection::kSelect1, c));
    EXPECT_EQ(o.SourceWidth(), 1);
    EXPECT_EQ(o.Component(3), c);
  }
}

// ---- Sync ------------------------------------------------------------------

struct SyncSpelling {
  const char* text;
  uint8_t flags;
};

class AssemblerSyncTest : public ::testing::TestWithParam<SyncSpelling> {};

TEST_P(AssemblerSyncTest, ReadsFlags) {
  const Instruction inst = One(GetParam().text);
  EXPECT_EQ(inst.op, Op::kSync);
  EXPECT_EQ(inst.sync_flags, GetParam().flags);
  EXPECT_TRUE(inst.operands.empty());
}

constexpr uint8_t kT = kSyncThreads, kG = kSyncTgsm, kUgroup = kSyncUavGroup,
                  kUglobal = kSyncUavGlobal;

INSTANTIATE_TEST_SUITE_P(
    FsSpellings, AssemblerSyncTest,
    ::testing::Values(SyncSpelling{"sync_g", kG},
                      SyncSpelling{"sync_g_t", kG | kT},
                      SyncSpelling{"sync_uglobal", kUglobal},
                      SyncSpelling{"sync_uglobal_t", kUglobal | kT},
                      SyncSpelling{"sync_uglobal_g", kUglobal | kG},
                      SyncSpelling{"sync_uglobal_g_t", kUglobal | kG | kT},
                      SyncSpelling{"sync_ugroup", kUgroup},
                      SyncSpelling{"sync_ugroup_t", kUgroup | kT},
                      SyncSpelling{"sync_ugroup_g", kUgroup | kG},
                      SyncSpelling{"sync_ugroup_g_t", kUgroup | kG | kT},
                      // Not in the FS list (E-33) but representable.
                      SyncSpelling{"sync_t", kT}, SyncSpelling{"sync", 0}));

// fxc prints bit 13 as _sat (it doubles as saturate; spec 3.3, E-32).
INSTANTIATE_TEST_SUITE_P(
    FxcSatSpellings, AssemblerSyncTest,
    ::testing::Values(
        SyncSpelling{"sync_sat_ugroup", kUgroup},
        SyncSpelling{"sync_sat_ugroup_t", kUgroup | kT},
        SyncSpelling{"sync_sat_ugroup_g", kUgroup | kG},
        SyncSpelling{"sync_sat_ugroup_g_t", kUgroup | kG | kT},
        SyncSpelling{"sync_sat_uglobal", kUgroup | kUglobal},
        SyncSpelling{"sync_sat_uglobal_t", kUgroup | kUglobal | kT},
        SyncSpelling{"sync_sat_uglobal_g_t", kUgroup | kUglobal | kG | kT}));

// ---- Declarations ----------------------------------------------------------

struct TypedDecl {
  const char* dim_name;
  Dim dim;
  int address_width;
};

class AssemblerTypedUavTest : public ::testing::TestWithParam<TypedDecl> {};

TEST_P(AssemblerTypedUavTest, ReadsDimensionGlcAndTypes) {
  const TypedDecl& d = GetParam();
  const Instruction plain = One(
      absl::StrCat("dcl_uav_typed_", d.dim_name, " (uint,uint,uint,uint) u5"));
  EXPECT_EQ(plain.op, Op::kDclUavTyped);
  EXPECT_EQ(plain.dim, d.dim);
  EXPECT_FALSE(plain.glc);
  EXPECT_EQ(plain.types,
            (std::array<ReturnType, 4>{ReturnType::kUint, ReturnType::kUint,
                                       ReturnType::kUint, ReturnType::kUint}));
  ASSERT_EQ(plain.operands.size(), 1u);
  EXPECT_EQ(plain.operands[0], Uav(5));
  EXPECT_EQ(TypedAddressWidth(plain.dim), d.address_width);

  const Instruction glc = One(absl::StrCat("dcl_uav_typed_", d.dim_name,
                                           "_glc (sint,float,unorm,snorm) u0"));
  EXPECT_EQ(glc.dim, d.dim);
  EXPECT_TRUE(glc.glc);
  EXPECT_EQ(glc.types, (std::array<ReturnType, 4>{
                           ReturnType::kSint, ReturnType::kFloat,
                           ReturnType::kUnorm, ReturnType::kSnorm}));
}

INSTANTIATE_TEST_SUITE_P(
    AllSixDims, AssemblerTypedUavTest,
    ::testing::Values(TypedDecl{"buffer", Dim::kBuffer, 1},
                      TypedDecl{"texture1d", Dim::kTexture1D, 1},
                      TypedDecl{"texture1darray", Dim::kTexture1DArray, 2},
                      TypedDecl{"texture2d", Dim::kTexture2D, 2},
                      TypedDecl{"texture2darray", Dim::kTexture2DArray, 3},
                      TypedDecl{"texture3d", Dim::kTexture3D, 3}),
    [](const ::testing::TestParamInfo<TypedDecl>& info) {
      return std::string(info.param.dim_name);
    });

TEST(AssemblerDeclTest, Vkd3dIntIsSint) {
  const Instruction inst = One("dcl_uav_typed_buffer (int,int,int,mixed) u0");
  EXPECT_EQ(inst.types,
            (std::array<ReturnType, 4>{ReturnType::kSint, ReturnType::kSint,
                                       ReturnType::kSint, ReturnType::kMixed}));
}

TEST(AssemblerDeclTest, TypeListMayHaveSpaces) {
  const Instruction inst =
      One("dcl_uav_typed_texture3d ( uint , uint , uint , uint ) u0");
  EXPECT_EQ(inst.dim, Dim::kTexture3D);
}

TEST(AssemblerDeclTest, UavRawGlc) {
  EXPECT_FALSE(One("dcl_uav_raw u0").glc);
  EXPECT_TRUE(One("dcl_uav_raw_glc u1").glc);
}

TEST(AssemblerDeclTest, UavStructuredGlcAndOpcInEitherOrder) {
  struct Spelling {
    const char* mnemonic;
    bool glc, opc;
  };
  for (const Spelling& s :
       {Spelling{"dcl_uav_structured", false, false},
        Spelling{"dcl_uav_structured_glc", true, false},
        Spelling{"dcl_uav_structured_opc", false, true},
        Spelling{"dcl_uav_structured_glc_opc", true, true},
        Spelling{"dcl_uav_structured_opc_glc", true, true}}) {
    const Instruction inst = One(absl::StrCat(s.mnemonic, " u3, 16"));
    EXPECT_EQ(inst.op, Op::kDclUavStructured) << s.mnemonic;
    EXPECT_EQ(inst.glc, s.glc) << s.mnemonic;
    EXPECT_EQ(inst.opc, s.opc) << s.mnemonic;
    ASSERT_EQ(inst.operands.size(), 2u);
    EXPECT_EQ(inst.operands[0], Uav(3));
    EXPECT_EQ(inst.operands[1], Number(16));
  }
}

TEST(AssemblerDeclTest, Spec32Listing) {
  const std::vector<Instruction> insts =
      Body(R"(dcl_globalFlags refactoringAllowed
dcl_uav_raw u0
dcl_uav_raw_glc u1
dcl_uav_structured u2, 16
dcl_uav_structured_opc u3, 4
dcl_uav_structured_glc u4, 8
dcl_uav_typed_buffer (uint,uint,uint,uint) u5
dcl_uav_typed_texture2d (sint,sint,sint,sint) u6
dcl_uav_typed_texture2darray (uint,uint,uint,uint) u7
dcl_uav_typed_texture2d_glc (float,float,float,float) u0
dcl_input vThreadID.xyz
dcl_input vThreadGroupID.x
dcl_input vThreadIDInGroup.xy
dcl_input vThreadIDInGroupFlattened
dcl_temps 3
dcl_tgsm_raw g0, 4
dcl_tgsm_structured g1, 4, 256
dcl_thread_group 64, 1, 1)");
  ASSERT_EQ(insts.size(), 18u);
  EXPECT_EQ(insts[0].global_flags, kRefactoringAllowed);
  EXPECT_EQ(insts[10].operands[0],
            Sv(RegFile::kThreadID, Selection::kMask, {0, 1, 2, 3}, 0b0111));
  EXPECT_EQ(insts[13].operands[0], Sv(RegFile::kThreadIDInGroupFlattened,
                                      Selection::kNone, {0, 1, 2, 3}));
  EXPECT_EQ(insts[14].operands[0], Number(3));
  EXPECT_EQ(insts[15].operands, (OperandList{Tgsm(0), Number(4)}));
  EXPECT_EQ(insts[16].operands, (OperandList{Tgsm(1), Number(4), Number(256)}));
  EXPECT_EQ(insts[17].operands,
            (OperandList{Number(64), Number(1), Number(1)}));
}

TEST(AssemblerDeclTest, GlobalFlagsAreOredTogether) {
  const Instruction inst = One(
      "dcl_globalFlags refactoringAllowed | enableRawAndStructuredBuffers | "
      "skipOptimization");
  EXPECT_EQ(inst.global_flags, kRefactoringAllowed |
                                   kEnableRawAndStructuredBuffers |
                                   kSkipOptimization);
  EXPECT_TRUE(inst.operands.empty());
}

TEST(AssemblerDeclTest, IndexableTemp) {
  const Instruction inst = One("dcl_indexableTemp x2[16], 4");
  ASSERT_EQ(inst.operands.size(), 2u);
  EXPECT_EQ(inst.operands[0].file, RegFile::kIndexableTemp);
  EXPECT_EQ(inst.operands[0].index, 2u);
  EXPECT_EQ(inst.operands[0].offset, 16u);
  EXPECT_FALSE(inst.operands[0].relative.has_value());
  EXPECT_EQ(inst.operands[1], Number(4));
}

TEST(AssemblerDeclTest, NumbersMayBeHex) {
  EXPECT_EQ(One("dcl_temps 0x10").operands[0], Number(16));
}

// ---- Loads with the _indexable suffix (spec 3.3) ---------------------------

TEST(AssemblerIndexableTest, RawBuffer) {
  const Instruction inst =
      One("ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r0.x, l(0), "
          "u0.xxxx");
  EXPECT_EQ(inst.op, Op::kLdRaw);
  ASSERT_TRUE(inst.indexable.has_value());
  EXPECT_EQ(*inst.indexable, (ResourceSuffix{Dim::kRawBuffer, 0}));
  ASSERT_EQ(inst.operands.size(), 3u);
  EXPECT_EQ(inst.operands[2].file, RegFile::kUav);
}

TEST(AssemblerIndexableTest, StructuredBufferWithStride) {
  const Instruction inst =
      One("ld_structured_indexable(structured_buffer, stride=4)"
          "(mixed,mixed,mixed,mixed) r0.y, r0.x, l(0), u0.xxxx");
  EXPECT_EQ(inst.op, Op::kLdStructured);
  ASSERT_TRUE(inst.indexable.has_value());
  EXPECT_EQ(*inst.indexable, (ResourceSuffix{Dim::kStructuredBuffer, 4}));
  EXPECT_EQ(inst.operands.size(), 4u);
}

TEST(AssemblerIndexableTest, TypedTexture) {
  const Instruction inst =
      One("ld_uav_typed_indexable(texture2d)(float,float,float,float) r0.x, "
          "r0.xyzw, u1.xyzw");
  EXPECT_EQ(inst.op, Op::kLdUavTyped);
  ASSERT_TRUE(inst.indexable.has_value());
  EXPECT_EQ(inst.indexable->dim, Dim::kTexture2D);
  EXPECT_EQ(inst.indexable->types[3], ReturnType::kFloat);
}

TEST(AssemblerIndexableTest, TgsmLoadsHaveNoSuffix) {
  EXPECT_FALSE(One("ld_raw r0.x, l(0), g0.xxxx").indexable.has_value());
  EXPECT_FALSE(
      One("ld_structured r0.x, r1.x, l(4), g1.xxxx").indexable.has_value());
}

// ---- Whole listings --------------------------------------------------------

// Spec 3.4, the fxc blob structured_tgsm_code, with its elided middle left
// out. It is already in canonical form.
constexpr absl::string_view kSpec34Listing = R"(cs_5_0
dcl_globalFlags refactoringAllowed
dcl_uav_raw u0
dcl_uav_raw u1
dcl_input vThreadIDInGroupFlattened
dcl_input vThreadGroupID.x
dcl_temps 2
dcl_tgsm_structured g0, 4, 32
dcl_thread_group 32, 1, 1
if_z vThreadIDInGroupFlattened.x
  ishl r0.x, vThreadGroupID.x, l(1)
  mov r0.y, l(0)
  loop
    uge r0.z, r0.y, l(32)
    breakc_nz r0.z
    store_structured g0.x, r0.y, l(0), r0.x
    iadd r0.y, r0.y, l(1)
  endloop
endif
sync_g_t
mov r0.x, vThreadIDInGroupFlattened.x
mov r0.y, l(0)
atomic_iadd g0, r0.xyxx, l(1)
sync_g_t
ishl r0.y, vThreadGroupID.x, l(2)
imm_atomic_exch r1.x, u0, r0.y, r0.x
store_raw u1.x, r0.y, r1.x
ret
)";

TEST(AssemblerListingTest, Spec34ListingParses) {
  const absl::StatusOr<Program> p = Assemble(kSpec34Listing, "spec34.asm");
  ASSERT_TRUE(p.ok()) << p.status();
  ASSERT_EQ(p->instructions.size(), 27u);
  EXPECT_EQ(p->major, 5);
  EXPECT_EQ(p->minor, 0);
  EXPECT_EQ(p->instructions[0].op, Op::kDclGlobalFlags);
  EXPECT_EQ(p->instructions[8].op, Op::kIfZ);
  EXPECT_EQ(p->instructions[18].op, Op::kSync);
  EXPECT_EQ(p->instructions[18].sync_flags, kSyncTgsm | kSyncThreads);
  const Instruction& exch = p->instructions[24];
  EXPECT_EQ(exch.op, Op::kImmAtomicExch);
  EXPECT_EQ(exch.operands, (OperandList{Temp(1, Selection::kMask, 1), Uav(0),
                                        Temp(0, Selection::kSelect1, 1),
                                        Temp(0, Selection::kSelect1, 0)}));
  EXPECT_EQ(p->instructions.back().op, Op::kRet);
  EXPECT_EQ(Print(*p), kSpec34Listing);
}

// What fxc prints around the code: a // header, blank lines, a trailing
// statistics comment, and comments after an instruction.
TEST(AssemblerListingTest, FxcCommentsAndHeaderAreIgnored) {
  constexpr absl::string_view kFxc =
      "//\n"
      "// Generated by Microsoft (R) HLSL Shader Compiler 10.1\n"
      "//\n"
      "//\n"
      "// Resource Bindings:\n"
      "//\n"
      "// Name                                 Type  Format         Dim      "
      "HLSL Bind  Count\n"
      "// ------------------------------ ---------- ------- ----------- "
      "-------------- ------\n"
      "// u                                     UAV    byte         r/w      "
      "       u0      1\n"
      "//\n"
      "\n"
      "cs_5_0 // target\n"
      "dcl_globalFlags refactoringAllowed\n"
      "\n"
      "   dcl_uav_raw u0\n"
      "dcl_thread_group 1, 1, 1   // one thread\n"
      "atomic_iadd u0, l(0), l(1)//no space\n"
      "ret \n"
      "// Approximately 2 instruction slots used\n";
  const absl::StatusOr<Program> p = Assemble(kFxc, "fxc.asm");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(Print(*p),
            "cs_5_0\n"
            "dcl_globalFlags refactoringAllowed\n"
            "dcl_uav_raw u0\n"
            "dcl_thread_group 1, 1, 1\n"
            "atomic_iadd u0, l(0), l(1)\n"
            "ret\n");
  EXPECT_EQ(p->instructions[0].line, 13);
  EXPECT_EQ(p->instructions[3].line, 17);
}

TEST(AssemblerListingTest, CrLfLineEndingsAndTabs) {
  const absl::StatusOr<Program> crlf =
      Assemble("cs_5_0\r\n\tmov\tr0.x,\tl(1)\r\nret\r\n", "crlf.asm");
  const absl::StatusOr<Program> lf =
      Assemble("cs_5_0\nmov r0.x, l(1)\nret\n", "lf.asm");
  ASSERT_TRUE(crlf.ok()) << crlf.status();
  ASSERT_TRUE(lf.ok()) << lf.status();
  EXPECT_EQ(*crlf, *lf);
}

TEST(AssemblerListingTest, EmptyProgramAndNoTrailingNewline) {
  const absl::StatusOr<Program> p = Assemble("cs_5_0", "t.asm");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_TRUE(p->instructions.empty());
  EXPECT_EQ(Print(*p), "cs_5_0\n");
}

TEST(AssemblerListingTest, InstructionsRememberTheirLines) {
  const absl::StatusOr<Program> p =
      Assemble("cs_5_0\n\nmov r0.x, l(1)\n// c\nret\n", "t.asm", 40);
  ASSERT_TRUE(p.ok()) << p.status();
  ASSERT_EQ(p->instructions.size(), 2u);
  EXPECT_EQ(p->instructions[0].line, 42);
  EXPECT_EQ(p->instructions[1].line, 44);
}

// ---- Spec 3.3 spellings ----------------------------------------------------

// Spec 3.3's atomic spellings, with cb0[0] (not in our model) replaced by
// temps. Each is already canonical.
TEST(AssemblerListingTest, Spec33AtomicSpellingsAreFixedPoints) {
  for (absl::string_view line : {
           "atomic_iadd u0, r0.x, l(1)",
           "atomic_iadd g0, r0.xyxx, l(1)",
           "atomic_and u0, l(0), r2.x",
           "atomic_cmp_store u0, l(4), r2.y, r2.x",
           "atomic_umin u3, vThreadID.xyzx, r0.x",
           "imm_atomic_iadd r0.z, u0, l(8), r2.x",
           "imm_atomic_cmp_exch r0.y, u0, l(4), r2.y, r2.x",
           "imm_atomic_exch r1.x, u0, r0.y, r0.x",
           "imm_atomic_exch r0.z, u4, l(3, 4, 0, 0), r0.y",
           "imm_atomic_alloc r0.x, u0",
           "imm_atomic_consume r0.x, u1",
           "sync_g_t",
           "sync_uglobal",
           "sync_uglobal_g_t",
           "store_uav_typed u1.xyzw, r0.xyzw, r1.xxxx",
           "store_structured u0.x, r0.x, l(0), vThreadID.x",
       }) {
    const std::string text = absl::StrCat("cs_5_0\n", line, "\n");
    const absl::StatusOr<Program> p = Assemble(text, "t.asm");
    ASSERT_TRUE(p.ok()) << line << ": " << p.status();
    EXPECT_EQ(Print(*p), text);
  }
}

// Non-canonical spellings settle after one print.
TEST(AssemblerListingTest, ProgramsReachAFixedPoint) {
  EXPECT_TRUE(testutil::AssemblyIsStable(kSpec34Listing));
  EXPECT_TRUE(
      testutil::AssemblyIsStable("cs_5_0\n"
                                 "dcl_indexableTemp x0[4], 4\n"
                                 "mov x0[r1.x].y, l(0.5)\n"
                                 "mov x0[r1.x + 2].y, x0[3].xxyy\n"
                                 "switch r0.x\n"
                                 "case l(1)\n"
                                 "mov r0.x, l(1)\n"
                                 "break\n"
                                 "default\n"
                                 "break\n"
                                 "endswitch\n"
                                 "retc_nz r0.x\n"));
}

// ---- Assemble's interface --------------------------------------------------

TEST(AssemblerInterfaceTest, ErrorsAreInvalidArgumentWithFileAndFirstLine) {
  const absl::StatusOr<Program> p =
      Assemble("cs_5_0\nmov r0.x, l(1)\nfoo\n", "shader.asm", 10);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(p.status().message(),
            "shader.asm:12:1: expected an instruction, found 'foo'");
}

TEST(AssemblerInterfaceTest, DefaultFileName) {
  const absl::StatusOr<Program> p = Assemble("cs_5_0\nbad\n");
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().message(),
            "<asm>:2:1: expected an instruction, found 'bad'");
}

TEST(AssemblerInterfaceTest, AssembleIntoReportsIntoTheCallersSink) {
  DiagnosticSink sink("case.case");
  sink.Error(1, 1, "something earlier", "'x'");
  const std::optional<Program> ok = AssembleInto("cs_5_0\nret\n", 5, sink);
  // An earlier error in the sink does not fail this program.
  ASSERT_TRUE(ok.has_value());
  EXPECT_EQ(ok->instructions.size(), 1u);
  const std::optional<Program> bad = AssembleInto("cs_5_0\nbad\n", 5, sink);
  EXPECT_FALSE(bad.has_value());
  ASSERT_EQ(sink.diagnostics().size(), 2u);
  EXPECT_EQ(sink.diagnostics()[1].Render(),
            "case.case:6:1: expected an instruction, found 'bad'");
}

TEST(AssemblerInterfaceTest, ReportsEveryBadLine) {
  const absl::StatusOr<Program> p =
      Assemble("cs_5_0\nfoo\nmov r0.x, l(1)\nbar r0\nmov r0, l(1)\n", "t.asm");
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().message(),
            "t.asm:2:1: expected an instruction, found 'foo'\n"
            "t.asm:4:1: expected an instruction, found 'bar'\n"
            "t.asm:5:7: expected '.' and a write mask, found ','");
}

}  // namespace
}  // namespace atomfuzz::isa
