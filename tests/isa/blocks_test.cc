// isa::PairBlocks: the one pairing of blocks that the oracle's and the fast
// executor's jumps, the reducer and the mutator read; and the opcode table's
// block columns it is computed from.
#include "isa/blocks.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "isa/assembler.h"

namespace atomfuzz::isa {
namespace {

Program Asm(const std::string& body) {
  absl::StatusOr<Program> p = Assemble(absl::StrCat(
      "cs_5_0\ndcl_temps 1\ndcl_thread_group 1, 1, 1\n", body, "ret\n"));
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? *p : Program{};
}

// Instruction indices below count the two declarations (0, 1).
TEST(PairBlocks, IfElseLoopSwitchAndTheirExits) {
  const Program p =
      Asm("loop\n"                   // 2
          "  switch r0.x\n"          // 3
          "    case l(1)\n"          // 4
          "      break\n"            // 5: leaves the switch
          "    default\n"            // 6
          "      if_nz r0.x\n"       // 7
          "        continue\n"       // 8: to the loop
          "      else\n"             // 9
          "        breakc_z r0.x\n"  // 10: leaves the switch
          "      endif\n"            // 11
          "  endswitch\n"            // 12
          "endloop\n");              // 13
  BlockPairs b;
  ASSERT_TRUE(PairBlocks(p, b).ok());
  // loop 2 .. 13
  EXPECT_EQ(b.opener[2], 2u);
  EXPECT_EQ(b.next[2], 13u);
  EXPECT_EQ(b.close[2], 13u);
  EXPECT_EQ(b.opener[13], 2u);
  // switch 3: labels 4, 6, then 12
  EXPECT_EQ(b.next[3], 4u);
  EXPECT_EQ(b.next[4], 6u);
  EXPECT_EQ(b.next[6], 12u);
  EXPECT_EQ(b.opener[6], 3u);
  EXPECT_EQ(b.close[4], 12u);
  // if 7: else 9, endif 11
  EXPECT_EQ(b.next[7], 9u);
  EXPECT_EQ(b.next[9], 11u);
  EXPECT_EQ(b.close[7], 11u);
  EXPECT_EQ(b.opener[11], 7u);
  // Exits: break to the innermost loop or switch, continue to the loop.
  EXPECT_EQ(b.opener[5], 3u);
  EXPECT_EQ(b.close[5], 12u);
  EXPECT_EQ(b.opener[8], 2u);
  EXPECT_EQ(b.close[8], 13u);
  EXPECT_EQ(b.opener[10], 3u);
  // The members, in order; other instructions belong to no block.
  EXPECT_EQ(b.members,
            (std::vector<uint32_t>{2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}));
  // Over a list of candidates that holds every block instruction, the same.
  BlockPairs c;
  const std::vector<uint32_t> candidates = {2, 3,  4,  5,  6,  7, 8,
                                            9, 10, 11, 12, 13, 14};
  ASSERT_TRUE(PairBlocks(p.instructions, candidates, c).ok());
  EXPECT_EQ(c.members, b.members);
  for (uint32_t i : b.members) {
    EXPECT_EQ(c.opener[i], b.opener[i]) << i;
    EXPECT_EQ(c.close[i], b.close[i]) << i;
  }
}

TEST(PairBlocks, UnbalancedBlocksNameTheirLine) {
  struct Bad {
    const char* body;
    const char* message;
  };
  for (const Bad& bad :
       {Bad{"else\n", "line 3: else without if"},
        Bad{"if_z r0.x\nelse\nelse\nendif\n", "line 5: else without if"},
        Bad{"loop\nendif\n", "line 4: endif without if"},
        Bad{"if_z r0.x\nendloop\n", "line 4: endloop without loop"},
        Bad{"endswitch\n", "line 3: endswitch without switch"},
        Bad{"loop\ncase l(0)\nendloop\n", "line 4: case outside switch"},
        Bad{"break\n", "line 3: break outside loop or switch"},
        Bad{"switch r0.x\ncontinue\nendswitch\n",
            "line 4: continue outside loop"},
        Bad{"loop\n", "line 3: block not closed"}}) {
    absl::StatusOr<Program> p =
        Assemble(absl::StrCat("cs_5_0\ndcl_temps 1\n", bad.body, "ret\n"));
    ASSERT_TRUE(p.ok()) << p.status();
    BlockPairs b;
    EXPECT_EQ(PairBlocks(*p, b).message(), bad.message) << bad.body;
  }
}

// Every row of the control family that opens, closes or labels a block says
// which kind; exits and the rest of the table say nothing they need not.
TEST(OpcodeTableBlocks, ColumnsAreConsistent) {
  int opens = 0, closes = 0;
  for (const OpcodeInfo& row : AllOpcodes()) {
    if (row.family != Family::kControl) {
      EXPECT_EQ(row.block, BlockShape::kNone) << row.mnemonic;
      continue;
    }
    const bool kinded =
        row.block != BlockShape::kNone && row.block != BlockShape::kBreak;
    EXPECT_EQ(row.block_kind != BlockKind::kNone, kinded) << row.mnemonic;
    opens += row.block == BlockShape::kOpen;
    closes += row.block == BlockShape::kClose;
  }
  EXPECT_EQ(opens, 4);   // if_z, if_nz, loop, switch
  EXPECT_EQ(closes, 3);  // endif, endloop, endswitch
  EXPECT_EQ(Layout(Op::kIMul).destinations(), 2);
  EXPECT_EQ(Layout(Op::kIMul).sources(), 2);
  EXPECT_EQ(Layout(Op::kMovc).destinations(), 1);
  EXPECT_EQ(Layout(Op::kMovc).sources(), 3);
}

}  // namespace
}  // namespace atomfuzz::isa
