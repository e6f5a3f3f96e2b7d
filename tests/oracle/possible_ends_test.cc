// The values a word may end with when nobody saw the atomics' returns:
// every legal order's, and nothing else (spec 2.1).
#include "oracle/possible_ends.h"

#include <vector>

#include "gtest/gtest.h"

namespace atomfuzz::oracle {
namespace {

using isa::Rmw;
using Ends = std::vector<uint32_t>;

SerialOp Op(uint32_t chain, Rmw rmw, uint32_t src0, uint32_t interval = 0,
            uint32_t src1 = 0) {
  SerialOp o;
  o.chain = chain;
  o.rmw = rmw;
  o.src0 = src0;
  o.src1 = src1;
  o.interval = interval;
  return o;
}

TEST(PossibleEnds, RacingExchangesLeaveAnyOneOfTheirValues) {
  const std::vector<SerialOp> ops = {Op(0, Rmw::kExch, 7), Op(1, Rmw::kExch, 8),
                                     Op(2, Rmw::kExch, 9)};
  EXPECT_EQ(PossibleEnds(0, ops, 64, 1000), (Ends{7, 8, 9}));
}

TEST(PossibleEnds, AnExchangeRacingAnAddLeavesEitherOrder) {
  const std::vector<SerialOp> ops = {Op(0, Rmw::kExch, 10),
                                     Op(1, Rmw::kIAdd, 1)};
  EXPECT_EQ(PossibleEnds(5, ops, 64, 1000), (Ends{10, 11}));
}

TEST(PossibleEnds, ProgramOrderAndBarriersRestrictTheOrders) {
  // One thread: exch 1 then exch 2, nothing can come between.
  EXPECT_EQ(
      PossibleEnds(0, {Op(0, Rmw::kExch, 1), Op(0, Rmw::kExch, 2)}, 64, 1000),
      (Ends{2}));
  // Two threads of one group, the second after a barrier.
  EXPECT_EQ(PossibleEnds(0, {Op(1, Rmw::kExch, 2, 1), Op(0, Rmw::kExch, 1, 0)},
                         64, 1000),
            (Ends{2}));
}

TEST(PossibleEnds, CompareExchangeDependsOnWhatCameFirst) {
  // cmp_exch (0 -> 5) and exch 3 from 0: cmp first leaves 5, then 3; exch
  // first leaves 3, and the compare fails. Either way 3.
  EXPECT_EQ(
      PossibleEnds(0, {Op(0, Rmw::kCmpExch, 0, 0, 5), Op(1, Rmw::kExch, 3)}, 64,
                   1000),
      (Ends{3}));
}

TEST(PossibleEnds, GivesUpRatherThanMissAValue) {
  std::vector<SerialOp> ops;
  for (uint32_t t = 0; t < 20; ++t) ops.push_back(Op(t, Rmw::kExch, t));
  EXPECT_EQ(PossibleEnds(0, ops, 8, 1u << 20), std::nullopt);  // 20 values
  EXPECT_EQ(PossibleEnds(0, ops, 64, 100), std::nullopt);      // states
}

}  // namespace
}  // namespace atomfuzz::oracle
