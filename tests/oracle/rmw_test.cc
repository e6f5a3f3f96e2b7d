// Each atomic operation at 0, 1, 0x7fffffff, 0x80000000, 0xffffffff, both
// signs, compare equal and unequal (spec 1.4-1.6, E-1..E-7, E-36). Expected
// values are worked out by hand from the spec, not computed.
#include "oracle/rmw.h"

#include "gtest/gtest.h"

namespace atomfuzz::oracle {
namespace {

using isa::Rmw;

struct Row {
  Rmw rmw;
  uint32_t old, src0, src1, expected;
};

class RmwTest : public testing::TestWithParam<Row> {};

TEST_P(RmwTest, NewValue) {
  const Row& r = GetParam();
  EXPECT_EQ(ApplyRmw(r.rmw, r.old, r.src0, r.src1), r.expected)
      << "old " << r.old << " src0 " << r.src0 << " src1 " << r.src1;
}

INSTANTIATE_TEST_SUITE_P(
    IAdd, RmwTest,
    testing::Values(Row{Rmw::kIAdd, 0, 0, 0, 0}, Row{Rmw::kIAdd, 0, 1, 0, 1},
                    Row{Rmw::kIAdd, 0xffffffff, 1, 0, 0},  // E-1 wrap
                    Row{Rmw::kIAdd, 0x7fffffff, 1, 0, 0x80000000},
                    Row{Rmw::kIAdd, 5, 0xffffffff, 0, 4},  // l(-1)
                    Row{Rmw::kIAdd, 0x80000000, 0x80000000, 0, 0}));

INSTANTIATE_TEST_SUITE_P(
    Bitwise, RmwTest,
    testing::Values(Row{Rmw::kAnd, 0xffffffff, 0x0f0f0f0f, 0, 0x0f0f0f0f},
                    Row{Rmw::kAnd, 0x80000000, 0x7fffffff, 0, 0},
                    Row{Rmw::kOr, 0, 0x80000000, 0, 0x80000000},
                    Row{Rmw::kOr, 1, 0xfffffffe, 0, 0xffffffff},
                    Row{Rmw::kXor, 0xffffffff, 0xffffffff, 0, 0},
                    Row{Rmw::kXor, 0x7fffffff, 0x80000000, 0, 0xffffffff}));

INSTANTIATE_TEST_SUITE_P(
    Exchange, RmwTest,
    testing::Values(Row{Rmw::kExch, 7, 0xffffffff, 0, 0xffffffff},
                    Row{Rmw::kExch, 0x80000000, 0, 0, 0},
                    // E-5: src0 is the comparand, src1 the new value.
                    Row{Rmw::kCmpExch, 5, 5, 9, 9},
                    Row{Rmw::kCmpExch, 5, 9, 5, 5},  // swapped operands fail
                    Row{Rmw::kCmpExch, 0, 1, 2, 0},  // E-6: unequal, unchanged
                    // E-4: -0.0f and +0.0f differ bitwise.
                    Row{Rmw::kCmpExch, 0x80000000, 0, 1, 0x80000000},
                    Row{Rmw::kCmpExch, 0x7fc00000, 0x7fc00000, 1, 1}));

INSTANTIATE_TEST_SUITE_P(
    SignedMinMax, RmwTest,
    testing::Values(Row{Rmw::kIMax, 0x80000000, 0x7fffffff, 0,
                        0x7fffffff},  // E-2
                    Row{Rmw::kIMax, 0xffffffff, 0, 0, 0},
                    Row{Rmw::kIMax, 0xfffffffe, 0xffffffff, 0, 0xffffffff},
                    Row{Rmw::kIMax, 1, 0x80000000, 0, 1},
                    Row{Rmw::kIMin, 0xffffffff, 0, 0, 0xffffffff},  // E-2
                    Row{Rmw::kIMin, 0x7fffffff, 0x80000000, 0, 0x80000000},
                    Row{Rmw::kIMin, 0, 1, 0, 0}));

INSTANTIATE_TEST_SUITE_P(
    UnsignedMinMax, RmwTest,
    testing::Values(Row{Rmw::kUMax, 0, 0xffffffff, 0, 0xffffffff},  // E-2
                    Row{Rmw::kUMax, 0x80000000, 0x7fffffff, 0, 0x80000000},
                    Row{Rmw::kUMax, 1, 1, 0, 1},
                    Row{Rmw::kUMin, 0xffffffff, 0, 0, 0},
                    Row{Rmw::kUMin, 0x7fffffff, 0x80000000, 0, 0x7fffffff},
                    Row{Rmw::kUMin, 1, 0xffffffff, 0, 1}));

TEST(Counter, AllocReturnsOldAndWraps) {  // E-36
  EXPECT_EQ(Alloc(0).returned, 0u);
  EXPECT_EQ(Alloc(0).next, 1u);
  EXPECT_EQ(Alloc(0xffffffff).returned, 0xffffffffu);
  EXPECT_EQ(Alloc(0xffffffff).next, 0u);
}

TEST(Counter, ConsumeReturnsNewAndWraps) {  // E-36, spec 1.6
  EXPECT_EQ(Consume(5).returned, 4u);
  EXPECT_EQ(Consume(5).next, 4u);
  EXPECT_EQ(Consume(0).returned, 0xffffffffu);
  EXPECT_EQ(Consume(0).next, 0xffffffffu);
}

}  // namespace
}  // namespace atomfuzz::oracle
