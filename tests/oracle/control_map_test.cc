// BuildControlMap: where control flow goes, and the cases of each switch
// listed in order (nested switches kept apart), also when built again into
// a map that held a larger program.
#include "oracle/control_map.h"

#include <vector>

#include "gtest/gtest.h"
#include "isa/operand.h"

namespace atomfuzz::oracle {
namespace {

isa::Program Of(const std::vector<isa::Op>& ops) {
  isa::Program p;
  for (isa::Op op : ops) {
    isa::Instruction inst;
    inst.op = op;
    if (op == isa::Op::kSwitch || op == isa::Op::kCase)
      inst.operands = {isa::Imm(0)};
    p.instructions.push_back(inst);
  }
  return p;
}

std::vector<uint32_t> CasesOf(const ControlMap& map, uint32_t sw) {
  std::vector<uint32_t> out;
  for (uint32_t k = map.next_case[sw]; k != ControlMap::kNoCase;
       k = map.next_case[k]) {
    out.push_back(k);
  }
  return out;
}

using isa::Op;

TEST(ControlMap, NestedSwitchesKeepTheirOwnCases) {
  const isa::Program p = Of({Op::kSwitch,     // 0
                             Op::kCase,       // 1
                             Op::kSwitch,     // 2
                             Op::kCase,       // 3
                             Op::kBreak,      // 4
                             Op::kDefault,    // 5
                             Op::kEndSwitch,  // 6
                             Op::kBreak,      // 7
                             Op::kCase,       // 8
                             Op::kDefault,    // 9
                             Op::kEndSwitch,  // 10
                             Op::kSwitch,     // 11: no cases
                             Op::kEndSwitch,  // 12
                             Op::kRet});
  ControlMap map;
  ASSERT_TRUE(BuildControlMap(p, map).ok());
  EXPECT_EQ(CasesOf(map, 0), (std::vector<uint32_t>{1, 8, 9}));
  EXPECT_EQ(CasesOf(map, 2), (std::vector<uint32_t>{3, 5}));
  EXPECT_EQ(CasesOf(map, 11), std::vector<uint32_t>{});
  EXPECT_EQ(map.target[0], 10u);
  EXPECT_EQ(map.target[2], 6u);
  EXPECT_EQ(map.target[11], 12u);
  EXPECT_EQ(map.target[4], 6u);   // break: the inner endswitch
  EXPECT_EQ(map.target[7], 10u);  // break: the outer endswitch
  EXPECT_EQ(map.target[3], 2u);   // case: its switch
  EXPECT_EQ(map.target[9], 0u);

  // Again into the same map, for a smaller program: nothing of the first.
  const isa::Program q =
      Of({Op::kSwitch, Op::kDefault, Op::kEndSwitch, Op::kRet});
  ASSERT_TRUE(BuildControlMap(q, map).ok());
  ASSERT_EQ(map.target.size(), 4u);
  EXPECT_EQ(CasesOf(map, 0), std::vector<uint32_t>{1});
  EXPECT_EQ(map.target[0], 2u);
  EXPECT_EQ(map.next_case[3], ControlMap::kNoCase);
  // And for one without a switch: no case list at all.
  ASSERT_TRUE(
      BuildControlMap(Of({Op::kLoop, Op::kBreak, Op::kEndLoop, Op::kRet}), map)
          .ok());
  EXPECT_TRUE(map.next_case.empty());
  EXPECT_EQ(map.target[1], 2u);  // break: the endloop
}

TEST(ControlMap, UnbalancedFails) {
  ControlMap map;
  EXPECT_FALSE(
      BuildControlMap(Of({Op::kSwitch, Op::kCase, Op::kRet}), map).ok());
  EXPECT_FALSE(BuildControlMap(Of({Op::kCase, Op::kRet}), map).ok());
  EXPECT_FALSE(BuildControlMap(Of({Op::kLoop, Op::kEndIf}), map).ok());
  EXPECT_FALSE(BuildControlMap(Of({Op::kBreak}), map).ok());
}

}  // namespace
}  // namespace atomfuzz::oracle
