// The table walk of the style guide (7.6): every row goes through print and
// assemble and comes back unchanged; the token numbers match spec 4.5.
#include "isa/opcode_table.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "isa/assembler.h"
#include "isa/operand.h"
#include "isa/printer.h"
#include "isa/program.h"
#include "tests/testing/round_trip.h"

namespace atomfuzz::isa {
namespace {

Operand SystemValue(RegFile file, Selection sel, std::array<uint8_t, 4> sw) {
  Operand o;
  o.file = file;
  o.selection = sel;
  o.swizzle = sw;
  return o;
}

Operand MemWithMask(RegFile file, uint32_t n, uint8_t mask) {
  Operand o = file == RegFile::kUav ? Uav(n) : Tgsm(n);
  o.selection = Selection::kMask;
  o.mask = mask;
  return o;
}

Operand MemWithSwizzle(RegFile file, uint32_t n, std::array<uint8_t, 4> sw) {
  Operand o = file == RegFile::kUav ? Uav(n) : Tgsm(n);
  o.selection = Selection::kSwizzle;
  o.swizzle = sw;
  return o;
}

// A source operand for `role`; `i` varies the register numbers and forms.
Operand SampleSource(Role role, uint32_t i) {
  switch (role) {
    case Role::kAddress: return TempSwizzle(i, {1, 0, 3, 2});
    case Role::kValue: return Imm(0xFFFFFFFFu);
    case Role::kComparand: return Temp(i, Selection::kSelect1, 2);
    case Role::kByteOffset: return Imm(4);
    case Role::kStructIndex:
      return SystemValue(RegFile::kThreadID, Selection::kSelect1, {1, 0, 0, 0});
    case Role::kCondition: return Temp(i, Selection::kSelect1, 3);
    case Role::kCaseValue: return Imm(3);
    default: break;
  }
  switch (i % 4) {
    case 0: return TempSwizzle(i, {0, 1, 2, 3});
    case 1: return Imm4(1, 0xFFFFFFFFu, 0x80000000u, 0x3F000000u);
    case 2:
      return SystemValue(RegFile::kThreadIDInGroup, Selection::kSwizzle,
                         {0, 1, 2, 0});
    default:
      return SystemValue(RegFile::kThreadIDInGroupFlattened,
                         Selection::kSelect1, {0, 0, 0, 0});
  }
}

// An operand of the kind and role `spec` asks for, in a form that exercises
// its spelling. `row` decides the few cases where the row matters.
Operand SampleOperand(const OpcodeInfo& row, const OperandSpec& spec,
                      uint32_t i) {
  switch (spec.kind) {
    case OperandKind::kDst:
      if (spec.role == Role::kReturn) return Temp(i, Selection::kMask, 0b1000);
      if (spec.role == Role::kSecondDest) {
        return Temp(i, Selection::kMask, 0b0110);
      }
      // imul/umul: fxc writes the unused high half to null.
      if (row.operand_with_role(Role::kSecondDest) >= 0) return Operand{};
      return Temp(i, Selection::kMask, 0b1101);
    case OperandKind::kSrc: return SampleSource(spec.role, i);
    case OperandKind::kMem: return i % 2 == 0 ? Uav(i) : Tgsm(i);
    case OperandKind::kMemDst: return MemWithMask(RegFile::kTgsm, i, 0b0011);
    case OperandKind::kMemSrc:
      return MemWithSwizzle(RegFile::kUav, i, {0, 0, 0, 0});
    case OperandKind::kUav: return Uav(5);
    case OperandKind::kTgsm: return Tgsm(2);
    case OperandKind::kInputDecl: {
      Operand o =
          SystemValue(RegFile::kThreadID, Selection::kMask, {0, 1, 2, 3});
      o.mask = 0b0111;
      return o;
    }
    case OperandKind::kNumber: return Number(16 + i);
    case OperandKind::kInputPsDecl: {
      Operand o;
      o.file = RegFile::kInput;
      o.index = i;
      o.selection = Selection::kMask;
      o.mask = 0b0011;
      return o;
    }
    case OperandKind::kInputName:
      return Number(static_cast<uint32_t>(InputName::kSampleIndex));
    case OperandKind::kIndexableTempDecl: {
      Operand o;
      o.file = RegFile::kIndexableTemp;
      o.index = 1;
      o.offset = 8;
      return o;
    }
    case OperandKind::kEnd: break;
  }
  ADD_FAILURE() << "no sample for an operand of " << row.mnemonic;
  return Operand{};
}

// The _indexable suffix that suits the memory the row reads.
ResourceSuffix SampleIndexable(const OpcodeInfo& row) {
  ResourceSuffix s;
  if (row.memories & kUavStructured) {
    s.dim = Dim::kStructuredBuffer;
    s.stride = 4;
  } else if (row.memories & kUavTyped) {
    s.dim = Dim::kTexture2D;
    s.types = {ReturnType::kFloat, ReturnType::kFloat, ReturnType::kFloat,
               ReturnType::kFloat};
  } else {
    s.dim = Dim::kRawBuffer;
  }
  return s;
}

// Every suffix field the row has, set to a value other than its default.
void SetAllSuffixes(const OpcodeInfo& row, Instruction& inst) {
  switch (row.suffix) {
    case Suffix::kSyncFlags:
      inst.sync_flags = kSyncUavGlobal | kSyncTgsm | kSyncThreads;
      break;
    case Suffix::kGlc: inst.glc = true; break;
    case Suffix::kGlcOpc:
      inst.glc = true;
      inst.opc = true;
      break;
    case Suffix::kDimGlc:
      inst.glc = true;
      inst.dim = Dim::kTexture2DArray;
      inst.types = {ReturnType::kSint, ReturnType::kSint, ReturnType::kSint,
                    ReturnType::kSint};
      break;
    case Suffix::kIndexable: inst.indexable = SampleIndexable(row); break;
    case Suffix::kGlobalFlags:
      inst.global_flags = kRefactoringAllowed | kEnableRawAndStructuredBuffers;
      break;
    case Suffix::kInterpolation:
      inst.interpolation = Interpolation::kLinearNoPerspectiveSample;
      break;
    case Suffix::kNone: break;
  }
}

// The smallest suffix a row can be printed with.
void SetMinimalSuffixes(const OpcodeInfo& row, Instruction& inst) {
  if (row.suffix == Suffix::kDimGlc) inst.dim = Dim::kBuffer;
  if (row.suffix == Suffix::kGlobalFlags) {
    inst.global_flags = kRefactoringAllowed;
  }
  if (row.suffix == Suffix::kInterpolation) {
    inst.interpolation = Interpolation::kConstant;
  }
}

Instruction SampleInstruction(const OpcodeInfo& row, bool all_suffixes) {
  Instruction inst;
  inst.op = row.op;
  for (int i = 0; i < row.operand_count(); ++i) {
    inst.operands.push_back(
        SampleOperand(row, row.operands[i], static_cast<uint32_t>(i)));
  }
  if (all_suffixes) {
    SetAllSuffixes(row, inst);
  } else {
    SetMinimalSuffixes(row, inst);
  }
  return inst;
}

std::string RowName(const ::testing::TestParamInfo<int>& info) {
  return std::string(AllOpcodes()[static_cast<size_t>(info.param)].mnemonic);
}

class OpcodeRowTest : public ::testing::TestWithParam<int> {
 protected:
  const OpcodeInfo& row() const {
    return AllOpcodes()[static_cast<size_t>(GetParam())];
  }
};

TEST_P(OpcodeRowTest, PrintsAndAssemblesBackWithEverySuffix) {
  Program p;
  p.instructions.push_back(SampleInstruction(row(), /*all_suffixes=*/true));
  EXPECT_TRUE(testutil::ProgramRoundTrips(p));
}

TEST_P(OpcodeRowTest, PrintsAndAssemblesBackWithTheSmallestSuffix) {
  Program p;
  p.instructions.push_back(SampleInstruction(row(), /*all_suffixes=*/false));
  EXPECT_TRUE(testutil::ProgramRoundTrips(p));
}

TEST_P(OpcodeRowTest, PrintedLineStartsWithTheMnemonic) {
  const Instruction inst = SampleInstruction(row(), /*all_suffixes=*/true);
  const std::string line = PrintInstruction(inst);
  EXPECT_TRUE(absl::StartsWith(line, row().mnemonic)) << line;
  ASSERT_EQ(static_cast<int>(inst.operands.size()), row().operand_count());
}

TEST_P(OpcodeRowTest, MnemonicMapsBothWays) {
  EXPECT_EQ(FindMnemonic(row().mnemonic), &row());
  EXPECT_EQ(&Info(row().op), &row());
  EXPECT_EQ(static_cast<int>(row().op), GetParam());  // keyed by op (7.1)
}

TEST_P(OpcodeRowTest, OperandListIsWellFormed) {
  const int n = row().operand_count();
  ASSERT_LE(n, kMaxOperands);
  for (int i = n; i < kMaxOperands; ++i) {
    EXPECT_EQ(row().operands[i].kind, OperandKind::kEnd) << "slot " << i;
  }
  for (int i = 0; i < n; ++i) {
    EXPECT_NE(row().operands[i].role, Role::kNone) << "operand " << i;
  }
  EXPECT_FALSE(row().spec_ref.empty());
}

INSTANTIATE_TEST_SUITE_P(AllRows, OpcodeRowTest,
                         ::testing::Range(0, static_cast<int>(kOpCount)),
                         RowName);

TEST(OpcodeTableTest, HasOneRowPerOp) {
  EXPECT_EQ(AllOpcodes().size(), static_cast<size_t>(kOpCount));
}

TEST(OpcodeTableTest, FindMnemonicRejectsWhatIsNoRow) {
  for (absl::string_view m :
       {"", "MOV", "mov ", "atomic_add", "imm_atomic_add", "sync_g_t",
        "dcl_uav_typed_buffer", "ld_raw_indexable", "if", "cs_5_0",
        "dcl_constantbuffer", "atomic"}) {
    EXPECT_EQ(FindMnemonic(m), nullptr) << m;
  }
}

// Spec 4.5, copied from the TPF enum. The two atomic groups are not in
// parallel order (spec 1.5, E-39).
TEST(OpcodeTableTest, TokenOpcodesMatchSpec45) {
  const std::vector<std::pair<absl::string_view, int>> expected = {
      {"atomic_and", 169},
      {"atomic_or", 170},
      {"atomic_xor", 171},
      {"atomic_cmp_store", 172},
      {"atomic_iadd", 173},
      {"atomic_imax", 174},
      {"atomic_imin", 175},
      {"atomic_umax", 176},
      {"atomic_umin", 177},
      {"imm_atomic_alloc", 178},
      {"imm_atomic_consume", 179},
      {"imm_atomic_iadd", 180},
      {"imm_atomic_and", 181},
      {"imm_atomic_or", 182},
      {"imm_atomic_xor", 183},
      {"imm_atomic_exch", 184},
      {"imm_atomic_cmp_exch", 185},
      {"imm_atomic_imax", 186},
      {"imm_atomic_imin", 187},
      {"imm_atomic_umax", 188},
      {"imm_atomic_umin", 189},
      {"sync", 190},
      {"iadd", 30},
      {"if_z", 31},
      {"if_nz", 31},
      {"ishl", 41},
      {"loop", 48},
      {"mov", 54},
      {"ret", 62},
      {"uge", 80},
      {"dcl_input", 95},
      {"dcl_temps", 104},
      {"dcl_indexableTemp", 105},
      {"dcl_globalFlags", 106},
      {"dcl_thread_group", 155},
      {"dcl_uav_typed", 156},
      {"dcl_uav_raw", 157},
      {"dcl_uav_structured", 158},
      {"dcl_tgsm_raw", 159},
      {"dcl_tgsm_structured", 160},
      {"ld_uav_typed", 163},
      {"store_uav_typed", 164},
      {"ld_raw", 165},
      {"store_raw", 166},
      {"ld_structured", 167},
      {"store_structured", 168},
  };
  for (const auto& [mnemonic, token] : expected) {
    const OpcodeInfo* row = FindMnemonic(mnemonic);
    ASSERT_NE(row, nullptr) << mnemonic;
    EXPECT_EQ(row->token_opcode, token) << mnemonic;
  }
}

TEST(OpcodeTableTest, TheTwentyOneAtomicsAreExactlyTheAtomicRows) {
  std::set<int> tokens;
  for (const OpcodeInfo& row : AllOpcodes()) {
    if (row.is_atomic()) tokens.insert(row.token_opcode);
  }
  std::set<int> expected;
  for (int t = 169; t <= 189; ++t) expected.insert(t);
  EXPECT_EQ(tokens, expected);
}

TEST(OpcodeTableTest, TestNonzeroOnlyOnTheNzForms) {
  for (const OpcodeInfo& row : AllOpcodes()) {
    EXPECT_EQ(row.test_nonzero, absl::EndsWith(row.mnemonic, "_nz"))
        << row.mnemonic;
  }
}

TEST(OpcodeTableTest, AtomicFamiliesAndRmw) {
  struct Expected {
    absl::string_view mnemonic;
    Family family;
    Rmw rmw;
  };
  const Expected rows[] = {
      {"atomic_and", Family::kAtomic, Rmw::kAnd},
      {"atomic_cmp_store", Family::kAtomic, Rmw::kCmpExch},
      {"atomic_iadd", Family::kAtomic, Rmw::kIAdd},
      {"atomic_umin", Family::kAtomic, Rmw::kUMin},
      {"imm_atomic_alloc", Family::kCounter, Rmw::kAlloc},
      {"imm_atomic_consume", Family::kCounter, Rmw::kConsume},
      {"imm_atomic_iadd", Family::kImmAtomic, Rmw::kIAdd},
      {"imm_atomic_and", Family::kImmAtomic, Rmw::kAnd},
      {"imm_atomic_exch", Family::kImmAtomic, Rmw::kExch},
      {"imm_atomic_cmp_exch", Family::kImmAtomic, Rmw::kCmpExch},
      {"imm_atomic_imax", Family::kImmAtomic, Rmw::kIMax},
      {"imm_atomic_umin", Family::kImmAtomic, Rmw::kUMin},
      {"sync", Family::kSync, Rmw::kNone},
      {"mov", Family::kAlu, Rmw::kNone},
  };
  for (const Expected& e : rows) {
    const OpcodeInfo* row = FindMnemonic(e.mnemonic);
    ASSERT_NE(row, nullptr) << e.mnemonic;
    EXPECT_EQ(row->family, e.family) << e.mnemonic;
    EXPECT_EQ(row->rmw, e.rmw) << e.mnemonic;
    EXPECT_EQ(row->returns_old(),
              e.family == Family::kImmAtomic || e.family == Family::kCounter)
        << e.mnemonic;
  }
}

TEST(OpcodeTableTest, AtomicOperandLayoutsFollowSpec47) {
  using K = OperandKind;
  using R = Role;
  struct Layout {
    absl::string_view mnemonic;
    std::vector<OperandSpec> operands;
  };
  const Layout layouts[] = {
      {"atomic_iadd",
       {{K::kMem, R::kTarget}, {K::kSrc, R::kAddress}, {K::kSrc, R::kValue}}},
      {"atomic_cmp_store",
       {{K::kMem, R::kTarget},
        {K::kSrc, R::kAddress},
        {K::kSrc, R::kComparand},
        {K::kSrc, R::kValue}}},
      {"imm_atomic_and",
       {{K::kDst, R::kReturn},
        {K::kMem, R::kTarget},
        {K::kSrc, R::kAddress},
        {K::kSrc, R::kValue}}},
      {"imm_atomic_cmp_exch",
       {{K::kDst, R::kReturn},
        {K::kMem, R::kTarget},
        {K::kSrc, R::kAddress},
        {K::kSrc, R::kComparand},
        {K::kSrc, R::kValue}}},
      {"imm_atomic_alloc", {{K::kDst, R::kReturn}, {K::kUav, R::kTarget}}},
      {"imm_atomic_consume", {{K::kDst, R::kReturn}, {K::kUav, R::kTarget}}},
      {"sync", {}},
  };
  for (const Layout& l : layouts) {
    const OpcodeInfo* row = FindMnemonic(l.mnemonic);
    ASSERT_NE(row, nullptr) << l.mnemonic;
    ASSERT_EQ(row->operand_count(), static_cast<int>(l.operands.size()))
        << l.mnemonic;
    for (size_t i = 0; i < l.operands.size(); ++i) {
      EXPECT_EQ(row->operands[i].kind, l.operands[i].kind)
          << l.mnemonic << " operand " << i;
      EXPECT_EQ(row->operands[i].role, l.operands[i].role)
          << l.mnemonic << " operand " << i;
    }
  }
}

TEST(OpcodeTableTest, OperandWithRole) {
  const OpcodeInfo& row = Info(Op::kImmAtomicCmpExch);
  EXPECT_EQ(row.operand_with_role(Role::kReturn), 0);
  EXPECT_EQ(row.operand_with_role(Role::kTarget), 1);
  EXPECT_EQ(row.operand_with_role(Role::kAddress), 2);
  EXPECT_EQ(row.operand_with_role(Role::kComparand), 3);
  EXPECT_EQ(row.operand_with_role(Role::kValue), 4);
  EXPECT_EQ(row.operand_with_role(Role::kCount), -1);
}

// Spec 1.1/1.6: atomics reach every memory; counters only structured u#.
TEST(OpcodeTableTest, MemoriesOfTheAtomics) {
  for (const OpcodeInfo& row : AllOpcodes()) {
    if (row.family == Family::kAtomic || row.family == Family::kImmAtomic) {
      EXPECT_EQ(row.memories, kAllMemories) << row.mnemonic;
    }
    if (row.family == Family::kCounter) {
      EXPECT_EQ(row.memories, kUavStructured) << row.mnemonic;
    }
  }
}

TEST(OpcodeTableTest, FamilyNamesAreDistinct) {
  std::set<absl::string_view> names;
  for (Family f : {Family::kAlu, Family::kControl, Family::kSync, Family::kLoad,
                   Family::kStore, Family::kAtomic, Family::kImmAtomic,
                   Family::kCounter, Family::kDecl}) {
    EXPECT_NE(FamilyName(f), "?");
    EXPECT_TRUE(names.insert(FamilyName(f)).second) << FamilyName(f);
  }
}

}  // namespace
}  // namespace atomfuzz::isa
