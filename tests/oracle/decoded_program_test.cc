// Decode resolves a one-lane ALU instruction's operands to flat indices into
// a thread's values (system values, then r#) or constants, as
// Execution::Read and Write would read and write them.
#include "oracle/internal/decoded_program.h"

#include <array>
#include <vector>

#include "gtest/gtest.h"
#include "isa/operand.h"

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
  p.instructions.push_back(Alu(isa::Op::kIAdd, {isa::Temp(1, isa::Selection::kMask, 0b0010),
                                                isa::Temp(0, isa::Selection::kSelect1, 2),
                                                isa::Imm(5)}));
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
  p.instructions.push_back(Alu(isa::Op::kIAdd, {isa::Temp(0, isa::Selection::kMask, 0b0001),
                                                Select1(isa::RegFile::kThreadIDInGroup, 1),
                                                Select1(isa::RegFile::kThreadID, 3)}));
  // mov r5.x, r0.x: beyond the one declared temp, the write goes nowhere.
  p.instructions.push_back(Alu(isa::Op::kMov, {isa::Temp(5, isa::Selection::kMask, 0b0001),
                                               isa::Temp(0, isa::Selection::kSelect1, 0)}));
  const DecodedProgram d = Decode(p);
  const FlatAlu& add = d.code[1].flat;
  ASSERT_TRUE(d.code[1].alu_flat);
  ASSERT_EQ(add.reg_count, 1);
  EXPECT_EQ(add.reg[0], static_cast<uint32_t>(SystemValueSlot(isa::RegFile::kThreadIDInGroup, 1)));
  EXPECT_EQ(add.constant[1], Value::Undefined());
  ASSERT_TRUE(d.code[2].alu_flat);
  EXPECT_EQ(d.code[2].flat.dst, FlatAlu::kNone);
}

TEST(Decode, IndexableTempsAndSeveralLanesAreNotFlat) {
  isa::Program p;
  isa::Operand x;
  x.file = isa::RegFile::kIndexableTemp;
  x.selection = isa::Selection::kSelect1;
  p.instructions.push_back(Alu(isa::Op::kMov, {isa::Temp(0, isa::Selection::kMask, 0b0001), x}));
  p.instructions.push_back(Alu(isa::Op::kMov, {isa::Temp(0, isa::Selection::kMask, 0b0011),
                                               isa::Imm(1)}));
  const DecodedProgram d = Decode(p);
  EXPECT_FALSE(d.code[0].alu_flat);
  EXPECT_FALSE(d.code[1].alu_flat);
}

}  // namespace
}  // namespace atomfuzz::oracle
