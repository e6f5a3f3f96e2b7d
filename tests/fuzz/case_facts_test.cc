// What the mutators read from a case (fuzz/generate/case_facts.h) and the
// operands they build from it (fuzz/generate/operand_builder.h): block
// partners, deletion ranges that keep blocks balanced, memory bounds, and edge
// addresses that reach the last valid word, the first out-of-bounds byte and
// misalignment.
#include "fuzz/generate/case_facts.h"

#include <set>
#include <string>

#include "fuzz/generate/case_limits.h"
#include "fuzz/generate/operand_builder.h"
#include "gtest/gtest.h"
#include "tests/fuzz/fast_testing.h"

namespace atomfuzz::fuzz {
namespace {

// Instruction indices: 0..3 declarations, code from 4; 16 is the final ret.
constexpr const char* kBody =
    "if_nz vThreadIDInGroupFlattened.x\n"   // 4
    "  atomic_iadd u0, l(0), l(1)\n"        // 5
    "else\n"                                // 6
    "  atomic_or u0, l(4), l(1)\n"          // 7
    "endif\n"                               // 8
    "switch vThreadIDInGroupFlattened.x\n"  // 9
    "  case l(1)\n"                         // 10
    "  atomic_xor u0, l(8), l(1)\n"         // 11
    "  break\n"                             // 12
    "  default\n"                           // 13
    "  break\n"                             // 14
    "endswitch\n";                          // 15

isa::Case Sample() {
  return testutil::Parse(
      testutil::CaseText(2, 8, testutil::RawUav(0, 4),
                         "dcl_uav_raw u0\ndcl_input vThreadIDInGroupFlattened\n"
                         "dcl_tgsm_structured g0, 8, 3\n",
                         kBody));
}

TEST(CaseFactsTest, GathersDeclarationsAndBlocks) {
  const isa::Case c = Sample();
  const CaseFacts f = GatherFacts(c);
  EXPECT_EQ(f.code_begin, 4u);
  EXPECT_EQ(f.code_end(), 16u);
  EXPECT_EQ(f.temps, 0u);
  ASSERT_EQ(f.memories.size(), 2u);
  EXPECT_EQ(f.memories[0].kind, isa::kUavRaw);
  EXPECT_EQ(f.memories[0].bytes, 16u);
  EXPECT_EQ(f.memories[1].kind, isa::kTgsmStructured);
  EXPECT_EQ(f.memories[1].bytes, 24u);
  EXPECT_EQ(f.InputMask(isa::RegFile::kThreadIDInGroupFlattened), 1);
  EXPECT_EQ(f.partner[4], 8u);
  EXPECT_EQ(f.partner[8], 4u);
  EXPECT_EQ(f.partner[6], 8u);
  EXPECT_EQ(f.partner[10], 13u);
  EXPECT_EQ(f.partner[13], 15u);
  EXPECT_EQ(ThreadCount(c), 16u);
  EXPECT_EQ(CaseWork(c), 16u * 17u);
}

TEST(CaseFactsTest, DeletionRangesKeepBlocksBalanced) {
  const isa::Case c = Sample();
  const CaseFacts f = GatherFacts(c);
  using R = std::pair<size_t, size_t>;
  EXPECT_EQ(DeletionRange(c.shader, f, 4), R(4, 8));     // the whole if
  EXPECT_EQ(DeletionRange(c.shader, f, 8), R(4, 8));     // from its endif
  EXPECT_EQ(DeletionRange(c.shader, f, 6), R(6, 7));     // the else branch
  EXPECT_EQ(DeletionRange(c.shader, f, 10), R(10, 12));  // one case
  EXPECT_EQ(DeletionRange(c.shader, f, 5), R(5, 5));
  EXPECT_FALSE(DeletionRange(c.shader, f, 0));      // a declaration
  EXPECT_FALSE(DeletionRange(c.shader, f, 16));     // the final ret
  EXPECT_FALSE(IsInsertionPoint(c.shader, f, 10));  // right after switch
  EXPECT_TRUE(IsInsertionPoint(c.shader, f, 16));   // before the ret
}

TEST(OperandBuilderTest, EdgeAddressesReachTheBoundsOfSpec13) {
  const CaseFacts f = GatherFacts(Sample());
  SeededChoices choices(1);
  std::set<uint32_t> raw, offsets, indices;
  for (int k = 0; k < 2000; ++k) {
    raw.insert(EdgeCoordinates(choices, f.memories[0])[0]);
    const auto s = EdgeCoordinates(choices, f.memories[1]);
    indices.insert(s[0]);
    offsets.insert(s[1]);
  }
  EXPECT_TRUE(raw.contains(12));  // the last valid word
  EXPECT_TRUE(raw.contains(16));  // the first out-of-bounds byte
  EXPECT_TRUE(raw.contains(1) || raw.contains(5) || raw.contains(9));
  EXPECT_TRUE(indices.contains(2) && indices.contains(3));  // last, first OOB
  EXPECT_TRUE(offsets.contains(4) && offsets.contains(8));  // last, = stride
}

TEST(OperandBuilderTest, AtomicOperandsFollowTheTableRow) {
  const CaseFacts f = GatherFacts(Sample());
  SeededChoices choices(3);
  EXPECT_EQ(AtomicOps().size(), 21u);
  for (isa::Op op : AtomicOps()) {
    const isa::OperandList ops = AtomicOperands(choices, f, op, f.memories[0]);
    ASSERT_EQ(static_cast<int>(ops.size()), isa::Info(op).operand_count());
    const int t = isa::Info(op).operand_with_role(isa::Role::kTarget);
    EXPECT_EQ(ops[static_cast<size_t>(t)].file, isa::RegFile::kUav);
  }
}

}  // namespace
}  // namespace atomfuzz::fuzz
