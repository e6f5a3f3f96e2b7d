// Decode resolves a one-lane ALU instruction's operands to flat indices into
// a thread's values (system values, then r#) or constants, as
// Execution::Read and Write would read and write them; and every field it
// works out per program is what a plain walk of the program gives (for the
// corpus and for random programs of every opcode row), decoded afresh or
// into the room of an earlier program. What the flat forms compute:
// flat_alu_test.cc.
#include "oracle/internal/decoded_program.h"

#include <algorithm>
#include <array>
#include <bit>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "isa/case_file.h"
#include "isa/opcode_table.h"
#include "isa/operand.h"
#include "isa/printer.h"
#include "isa/prng.h"
#include "tests/testing/corpus_walk.h"

namespace atomfuzz::oracle {
namespace {

isa::Operand Select1(isa::RegFile file, uint8_t component) {
  isa::Operand o;
  o.file = file;
  o.selection = isa::Selection::kSelect1;
  o.swizzle = {component, 0, 0, 0};
  return o;
}

isa::Instruction Alu(isa::Op op, isa::OperandList operands) {
  isa::Instruction inst;
  inst.op = op;
  inst.operands = std::move(operands);
  return inst;
}

// A program that starts with dcl_temps n.
isa::Program WithTemps(uint32_t n) {
  isa::Program p;
  isa::Instruction temps;
  temps.op = isa::Op::kDclTemps;
  temps.operands = {isa::Number(n)};
  p.instructions.push_back(temps);
  return p;
}

TEST(Decode, FlatAluReadsRegistersAndConstants) {
  isa::Program p = WithTemps(2);
  // iadd r1.y, r0.z, l(5)
  p.instructions.push_back(
      Alu(isa::Op::kIAdd,
          {isa::Temp(1, isa::Selection::kMask, 0b0010),
           isa::Temp(0, isa::Selection::kSelect1, 2), isa::Imm(5)}));
  const DecodedProgram d = Decode(p);
  EXPECT_EQ(d.leading_decls, 1u);
  EXPECT_EQ(d.temps, 2u);
  const DecodedInstruction& add = d.code[1];
  ASSERT_TRUE(add.alu_flat);
  EXPECT_EQ(add.flat.dst, kSystemValueCount + 1 * 4 + 1);
  ASSERT_EQ(add.flat.reg_count, 1);
  EXPECT_EQ(add.flat.reg_slot[0], 0);
  EXPECT_EQ(add.flat.reg[0], kSystemValueCount + 0 * 4 + 2);
  EXPECT_EQ(add.flat.constant[1], Value::Of(5));
  // Sources iadd does not read count as defined.
  EXPECT_EQ(add.flat.constant[2], Value::Of(0));
  EXPECT_EQ(add.flat.constant[3], Value::Of(0));
}

TEST(Decode, FlatAluSystemValuesAndOutOfRange) {
  isa::Program p = WithTemps(1);
  // iadd r0.x, vThreadIDInGroup.y, vThreadID.w (past z: undefined)
  p.instructions.push_back(
      Alu(isa::Op::kIAdd, {isa::Temp(0, isa::Selection::kMask, 0b0001),
                           Select1(isa::RegFile::kThreadIDInGroup, 1),
                           Select1(isa::RegFile::kThreadID, 3)}));
  // mov r5.x, r0.x: beyond the one declared temp, the write goes nowhere.
  p.instructions.push_back(
      Alu(isa::Op::kMov, {isa::Temp(5, isa::Selection::kMask, 0b0001),
                          isa::Temp(0, isa::Selection::kSelect1, 0)}));
  const DecodedProgram d = Decode(p);
  const FlatAlu& add = d.code[1].flat;
  ASSERT_TRUE(d.code[1].alu_flat);
  ASSERT_EQ(add.reg_count, 1);
  EXPECT_EQ(add.reg[0], static_cast<uint32_t>(SystemValueSlot(
                            isa::RegFile::kThreadIDInGroup, 1)));
  EXPECT_EQ(add.constant[1], Value::Undefined());
  ASSERT_TRUE(d.code[2].alu_flat);
  EXPECT_EQ(d.code[2].flat.dst, FlatAlu::kNone);
}

TEST(Decode, IndexableTempsAndSeveralLanesAreNotFlat) {
  isa::Program p;
  isa::Operand x;
  x.file = isa::RegFile::kIndexableTemp;
  x.selection = isa::Selection::kSelect1;
  p.instructions.push_back(
      Alu(isa::Op::kMov, {isa::Temp(0, isa::Selection::kMask, 0b0001), x}));
  p.instructions.push_back(
      Alu(isa::Op::kMov,
          {isa::Temp(0, isa::Selection::kMask, 0b0011), isa::Imm(1)}));
  const DecodedProgram d = Decode(p);
  EXPECT_FALSE(d.code[0].alu_flat);
  EXPECT_FALSE(d.code[1].alu_flat);
}

// What Decode works out, recomputed by a plain walk of the program: each
// field from the opcode table's rows (Info, operand_with_role) and the
// operands, with no state carried between instructions but counts.
void ExpectPlainFields(const isa::Program& program, const DecodedProgram& d) {
  const auto& code = program.instructions;
  ASSERT_EQ(d.code.size(), code.size());
  uint32_t atomics = 0, temps = 0, leading = 0;
  bool before_other = true;
  std::vector<uint32_t> declarations;
  std::set<std::pair<bool, uint32_t>> loaded;  // (tgsm, slot)
  uint32_t max_slot = 0;
  for (uint32_t i = 0; i < code.size(); ++i) {
    const isa::Instruction& inst = code[i];
    const isa::OpcodeInfo& info = isa::Info(inst.op);
    const DecodedInstruction& e = d.code[i];
    SCOPED_TRACE(testing::Message()
                 << i << ": " << isa::PrintInstruction(inst));
    EXPECT_EQ(e.family, info.family);
    EXPECT_EQ(e.atomic_ordinal, info.is_atomic() ? atomics++ : UINT32_MAX);
    if (info.family == isa::Family::kDecl) {
      declarations.push_back(i);
      if (before_other) ++leading;
    } else {
      before_other = false;
    }
    if (inst.op == isa::Op::kDclTemps) temps = inst.operands[0].index;
    for (const isa::Operand& o : inst.operands) {
      if (o.file == isa::RegFile::kUav || o.file == isa::RegFile::kTgsm) {
        max_slot = std::max(max_slot, o.index);
      }
    }
    const int target = info.operand_with_role(isa::Role::kTarget);
    if (info.family == isa::Family::kLoad && target >= 0 &&
        static_cast<size_t>(target) < inst.operands.size()) {
      const isa::Operand& mem = inst.operands[static_cast<size_t>(target)];
      if (mem.file == isa::RegFile::kUav || mem.file == isa::RegFile::kTgsm) {
        loaded.insert({mem.file == isa::RegFile::kTgsm, mem.index});
      }
    }
    if (info.family != isa::Family::kAlu) {
      EXPECT_EQ(e.alu_sources, 0);
      EXPECT_EQ(e.alu_lane, -1);
      EXPECT_EQ(e.alu_counted, 0);
      EXPECT_FALSE(e.alu_flat);
      continue;
    }
    int destinations = 0, sources = 0;
    for (int k = 0; k < info.operand_count(); ++k) {
      destinations +=
          info.operands[static_cast<size_t>(k)].kind == isa::OperandKind::kDst;
      sources +=
          info.operands[static_cast<size_t>(k)].kind == isa::OperandKind::kSrc;
    }
    const size_t given =
        inst.operands.size() > static_cast<size_t>(destinations)
            ? inst.operands.size() - static_cast<size_t>(destinations)
            : 0;
    EXPECT_EQ(e.alu_sources, std::min<size_t>(given, 4));
    EXPECT_EQ(e.alu_counted, sources);
    int lane = -1;
    if (destinations == 1 && !inst.operands.empty() &&
        std::popcount(inst.operands[0].mask & 0xFu) == 1) {
      lane = std::countr_zero(inst.operands[0].mask & 0xFu);
    }
    EXPECT_EQ(e.alu_lane, lane);
    // Flat: one lane, and no x# in the destination or a source it reads,
    // nor a v# (its input is known per pass).
    bool flat =
        lane >= 0 && inst.operands[0].file != isa::RegFile::kIndexableTemp;
    for (size_t k = 0; k < std::min<size_t>(given, 4); ++k) {
      if (static_cast<int>(k) < sources &&
          (inst.operands[1 + k].file == isa::RegFile::kIndexableTemp ||
           inst.operands[1 + k].file == isa::RegFile::kInput)) {
        flat = false;
      }
    }
    EXPECT_EQ(e.alu_flat, flat);
  }
  EXPECT_EQ(d.atomic_count, atomics);
  EXPECT_EQ(d.leading_decls, leading);
  EXPECT_EQ(d.temps, temps);
  EXPECT_EQ(d.declarations, declarations);
  for (const bool tgsm : {false, true}) {
    for (uint32_t slot = 0; slot <= max_slot + 2; ++slot) {
      EXPECT_EQ(d.Loaded(tgsm, slot), loaded.count({tgsm, slot}) > 0)
          << (tgsm ? "g" : "u") << slot;
    }
  }
}

// Every field of two decodings of one program, flat forms where they are
// used (Decode leaves the others as it found them).
void ExpectSameDecoding(const DecodedProgram& a, const DecodedProgram& b) {
  ASSERT_EQ(a.code.size(), b.code.size());
  EXPECT_EQ(a.leading_decls, b.leading_decls);
  EXPECT_EQ(a.atomic_count, b.atomic_count);
  EXPECT_EQ(a.loaded_uavs, b.loaded_uavs);
  EXPECT_EQ(a.loaded_tgsm, b.loaded_tgsm);
  EXPECT_EQ(a.temps, b.temps);
  EXPECT_EQ(a.declarations, b.declarations);
  for (size_t i = 0; i < a.code.size(); ++i) {
    const DecodedInstruction& x = a.code[i];
    const DecodedInstruction& y = b.code[i];
    SCOPED_TRACE(i);
    EXPECT_EQ(x.family, y.family);
    EXPECT_EQ(x.alu_sources, y.alu_sources);
    EXPECT_EQ(x.alu_lane, y.alu_lane);
    EXPECT_EQ(x.alu_counted, y.alu_counted);
    EXPECT_EQ(x.atomic_ordinal, y.atomic_ordinal);
    ASSERT_EQ(x.alu_flat, y.alu_flat);
    if (!x.alu_flat) continue;
    const FlatAlu& f = x.flat;
    const FlatAlu& g = y.flat;
    EXPECT_EQ(f.op, g.op);
    EXPECT_EQ(f.dst, g.dst);
    EXPECT_EQ(f.constant, g.constant);
    EXPECT_EQ(f.reg_count, g.reg_count);
    EXPECT_EQ(f.reg_slot, g.reg_slot);
    EXPECT_EQ(f.reg, g.reg);
    EXPECT_EQ(f.direct, g.direct);
    EXPECT_EQ(f.index, g.index);
    EXPECT_EQ(f.keep, g.keep);
    EXPECT_EQ(f.word, g.word);
  }
}

// A random operand of `kind`, from every file an instruction may hold.
isa::Operand RandomOperand(isa::Prng& prng, isa::OperandKind kind) {
  using isa::RegFile;
  const uint32_t n = static_cast<uint32_t>(prng.Below(6));
  isa::Operand o;
  switch (kind) {
    case isa::OperandKind::kDst: {
      const uint8_t mask = static_cast<uint8_t>(prng.Below(16));
      o = isa::Temp(n, isa::Selection::kMask, mask);
      if (prng.Chance(1, 8)) o.file = RegFile::kNull;
      if (prng.Chance(1, 8)) o.file = RegFile::kIndexableTemp;
      return o;
    }
    case isa::OperandKind::kSrc:
      switch (prng.Below(5)) {
        case 0: return isa::Imm(static_cast<uint32_t>(prng.Next64()));
        case 1: return isa::Imm4(1, 2, 3, 4);
        case 2:
          return Select1(RegFile::kThreadIDInGroup,
                         static_cast<uint8_t>(prng.Below(4)));
        case 3:
          o = isa::Temp(n, isa::Selection::kSelect1,
                        static_cast<uint8_t>(prng.Below(4)));
          o.file = RegFile::kIndexableTemp;
          return o;
        default:
          return isa::Temp(n, isa::Selection::kSelect1,
                           static_cast<uint8_t>(prng.Below(4)));
      }
    case isa::OperandKind::kNumber: return isa::Number(n);
    case isa::OperandKind::kInputDecl: return Select1(RegFile::kThreadID, 0);
    default:  // a memory: u#, g#, or (wrongly) a temp
      switch (prng.Below(5)) {
        case 0: return isa::Temp(n, isa::Selection::kSelect1, 0);
        case 1:
        case 2: return isa::Tgsm(n);
        default: return isa::Uav(n);
      }
  }
}

// Programs of random rows (every family), each with its operands of the
// row's kinds, at times one short or one over.
isa::Program RandomProgram(isa::Prng& prng) {
  const auto rows = isa::AllOpcodes();
  isa::Program p;
  const size_t length = prng.Below(40);
  for (size_t i = 0; i < length; ++i) {
    const isa::OpcodeInfo& info = rows[prng.Below(rows.size())];
    isa::Instruction inst;
    inst.op = info.op;
    for (int k = 0; k < info.operand_count(); ++k) {
      inst.operands.push_back(
          RandomOperand(prng, info.operands[static_cast<size_t>(k)].kind));
    }
    // dcl_temps keeps its count (Decode reads it unchecked, as the
    // validator has seen to it).
    if (info.op != isa::Op::kDclTemps && !inst.operands.empty() &&
        prng.Chance(1, 10)) {
      inst.operands.pop_back();
    } else if (prng.Chance(1, 10)) {
      inst.operands.push_back(RandomOperand(prng, isa::OperandKind::kSrc));
    }
    p.instructions.push_back(std::move(inst));
  }
  // Declarations first, as fxc writes them, in about half.
  if (prng.Chance(1, 2)) {
    std::stable_partition(p.instructions.begin(), p.instructions.end(),
                          [](const isa::Instruction& x) {
                            return x.info().family == isa::Family::kDecl;
                          });
  }
  return p;
}

TEST(Decode, FieldsAreWhatAPlainWalkGivesOnRandomPrograms) {
  isa::Prng prng(0xDEC0DE);
  DecodedProgram reused;  // as the judge keeps one for all its cases
  for (int i = 0; i < 3000; ++i) {
    const isa::Program p = RandomProgram(prng);
    const DecodedProgram fresh = Decode(p);
    ExpectPlainFields(p, fresh);
    Decode(p, reused);
    ExpectSameDecoding(fresh, reused);
    if (testing::Test::HasFailure()) {
      ADD_FAILURE() << "program " << i << ":\n" << isa::Print(p);
      return;
    }
  }
}

TEST(Decode, FieldsAreWhatAPlainWalkGivesOnTheCorpus) {
  const auto root = testutil::ProjectRootFrom(__FILE__);
  const std::vector<std::string> paths = testutil::CorpusCasePaths(root);
  ASSERT_FALSE(paths.empty());
  DecodedProgram reused;
  for (const std::string& path : paths) {
    absl::StatusOr<isa::Case> c =
        isa::ParseCase(testutil::ReadWholeFile(root / path), path);
    if (!c.ok()) continue;  // a corpus case meant not to parse
    SCOPED_TRACE(path);
    const DecodedProgram fresh = Decode(c->shader);
    ExpectPlainFields(c->shader, fresh);
    Decode(c->shader, reused);
    ExpectSameDecoding(fresh, reused);
  }
}

}  // namespace
}  // namespace atomfuzz::oracle
