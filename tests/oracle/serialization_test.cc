// The per-word serialization check accepts every legal order and rejects
// outcomes no order explains (spec 2.1, E-25, E-26).
#include "oracle/serialization.h"

#include <algorithm>

#include "gtest/gtest.h"
#include "isa/prng.h"

namespace atomfuzz::oracle {
namespace {

using isa::Rmw;
using Kind = SerialResult::Kind;

SerialOp Op(uint32_t chain, Rmw rmw, uint32_t src0, std::optional<uint32_t> ret,
            uint32_t src1 = 0) {
  SerialOp o;
  o.chain = chain;
  o.rmw = rmw;
  o.src0 = src0;
  o.src1 = src1;
  o.returned = ret;
  o.id = chain;
  return o;
}

TEST(Serialization, IAddPrefixesInAnyOrder) {  // E-25
  std::vector<SerialOp> ops = {Op(0, Rmw::kIAdd, 1, 12),
                               Op(1, Rmw::kIAdd, 1, 10),
                               Op(2, Rmw::kIAdd, 1, 11)};
  const auto r = CheckSerialization(10, ops, 13, 1000);
  EXPECT_EQ(r.kind, Kind::kAllowed);
  EXPECT_EQ(r.end, 13u);
}

TEST(Serialization, LostUpdateIsADivergence) {
  // Two adds both saw 10: no order returns 10 twice.
  std::vector<SerialOp> ops = {Op(0, Rmw::kIAdd, 1, 10),
                               Op(1, Rmw::kIAdd, 1, 10)};
  const auto r = CheckSerialization(10, ops, std::nullopt, 1000);
  EXPECT_EQ(r.kind, Kind::kDivergence);
  EXPECT_NE(r.why.find("0x0000000a"), std::string::npos) << r.why;
}

TEST(Serialization, FinalOffByOne) {
  std::vector<SerialOp> ops = {Op(0, Rmw::kIAdd, 1, 0),
                               Op(1, Rmw::kIAdd, 1, 1)};
  EXPECT_EQ(CheckSerialization(0, ops, 3, 1000).kind, Kind::kDivergence);
  EXPECT_EQ(CheckSerialization(0, ops, 2, 1000).kind, Kind::kAllowed);
}

TEST(Serialization, ExchangeChain) {  // E-26
  std::vector<SerialOp> ops = {Op(0, Rmw::kExch, 5, 7), Op(1, Rmw::kExch, 7, 0),
                               Op(2, Rmw::kExch, 9, 5)};
  const auto r = CheckSerialization(0, ops, 9, 1000);
  EXPECT_EQ(r.kind, Kind::kAllowed);
  EXPECT_EQ(CheckSerialization(0, ops, 7, 1000).kind, Kind::kDivergence);
}

TEST(Serialization, SwappedCmpExchOperandsAreCaught) {  // E-5
  // cmp_exch(comparand 0, value 5) on 0 stores 5; a translation that swaps
  // them compares with 5, fails, and leaves 0.
  std::vector<SerialOp> ops = {Op(0, Rmw::kCmpExch, 0, 0, 5)};
  EXPECT_EQ(CheckSerialization(0, ops, 5, 1000).kind, Kind::kAllowed);
  EXPECT_EQ(CheckSerialization(0, ops, 0, 1000).kind, Kind::kDivergence);
}

TEST(Serialization, ProgramOrderWithinAThreadIsKept) {
  // One thread adds 1 then 2: it cannot see 10 after its own add of 1 first.
  std::vector<SerialOp> ops = {Op(0, Rmw::kIAdd, 1, 12),
                               Op(0, Rmw::kIAdd, 2, 10)};
  EXPECT_EQ(CheckSerialization(10, ops, 13, 1000).kind, Kind::kDivergence);
}

TEST(Serialization, BarrierIntervalsOrderAGroup) {
  SerialOp late = Op(0, Rmw::kExch, 1, 0);
  late.interval = 1;
  SerialOp early = Op(1, Rmw::kExch, 2, 1);  // claims to come after `late`
  EXPECT_EQ(CheckSerialization(0, {late, early}, 2, 1000).kind,
            Kind::kDivergence);
  early.group = 1;  // another group: no barrier between them
  EXPECT_EQ(CheckSerialization(0, {late, early}, 2, 1000).kind, Kind::kAllowed);
}

TEST(Serialization, BlindCommutativeOpsFoldWithoutSearch) {
  std::vector<SerialOp> ops;
  for (uint32_t i = 0; i < 1000; ++i)
    ops.push_back(Op(i, Rmw::kOr, 1u << (i % 32), std::nullopt));
  const auto r = CheckSerialization(0, ops, 0xffffffff, 10);
  EXPECT_EQ(r.kind, Kind::kAllowed);
  EXPECT_EQ(r.steps, 0u);
}

TEST(Serialization, CountersAllocAndConsume) {  // E-36
  std::vector<SerialOp> ops = {Op(0, Rmw::kAlloc, 0, 1),
                               Op(1, Rmw::kAlloc, 0, 0)};
  EXPECT_EQ(CheckSerialization(0, ops, 2, 1000).kind, Kind::kAllowed);
  std::vector<SerialOp> consume = {Op(0, Rmw::kConsume, 0, 0xffffffff)};
  EXPECT_EQ(CheckSerialization(0, consume, 0xffffffff, 1000).kind,
            Kind::kAllowed);
  consume[0].returned = 0;  // the pre-decrement value: wrong (spec 1.6)
  EXPECT_EQ(CheckSerialization(0, consume, 0xffffffff, 1000).kind,
            Kind::kDivergence);
}

TEST(Serialization, SearchHandlesAmbiguousReturns) {
  // imax ops that do not change the word all return the same value.
  // Without pruning, 20 interchangeable ops are 2^20 states.
  std::vector<SerialOp> ops;
  for (uint32_t i = 0; i < 20; ++i) ops.push_back(Op(i, Rmw::kIMax, 3, 5));
  ops.push_back(Op(20, Rmw::kIMax, 9, 5));
  EXPECT_EQ(CheckSerialization(5, ops, 9, 1000).kind, Kind::kAllowed);
  EXPECT_EQ(CheckSerialization(5, ops, 5, 1000).kind, Kind::kDivergence);
  ops.push_back(Op(21, Rmw::kIMax, 1, 9));  // must come after the 9
  EXPECT_EQ(CheckSerialization(5, ops, 9, 1000).kind, Kind::kAllowed);
  ops.back().returned = 5;  // claims to precede it, yet the word ends at 9
  ops.back().src0 = 10;
  EXPECT_EQ(CheckSerialization(5, ops, 9, 1000).kind, Kind::kDivergence);
}

// Found by a campaign: chains 13 (iadd 0x10000, group 1) and 14 (iadd
// 0x20000, group 2) once had equal remaining-op signatures, so the search
// kept only one of them and missed the one legal order.
TEST(Serialization, DistinctChainsAreNotMistakenForTwins) {
  struct E {
    uint32_t chain, group;
    Rmw rmw;
    uint32_t src, ret;
  };
  const Rmw M = Rmw::kUMax, A = Rmw::kIAdd;
  const E events[] = {
      {3, 0, M, 0xfffffff0, 0x0},         {3, 0, M, 0xfffffff0, 0xfffffff0},
      {7, 1, M, 0xfffffff0, 0xfffffff0},  {11, 1, M, 0xfffffff0, 0xfffffff0},
      {12, 1, A, 0x8000, 0xfffffff0},     {13, 1, A, 0x10000, 0x7ff0},
      {7, 1, M, 0xfffffff0, 0x17ff0},     {11, 1, M, 0xfffffff0, 0xfffffff0},
      {13, 1, A, 0x10000, 0xfffffff0},    {15, 2, M, 0xfffffff0, 0xfff0},
      {19, 2, M, 0xfffffff0, 0xfffffff0}, {14, 2, A, 0x20000, 0xfffffff0},
      {15, 2, A, 0x40000, 0x1fff0},       {15, 2, M, 0xfffffff0, 0x5fff0},
      {19, 2, M, 0xfffffff0, 0xfffffff0}, {15, 2, A, 0x40000, 0xfffffff0}};
  std::vector<SerialOp> ops;
  for (const E& e : events) {
    SerialOp o;
    o.chain = e.chain;
    o.group = e.group;
    o.rmw = e.rmw;
    o.src0 = e.src;
    o.returned = e.ret;
    o.id = static_cast<uint32_t>(ops.size());
    ops.push_back(o);
  }
  const SerialResult r = CheckSerialization(0, ops, 0x3fff0, 1u << 20);
  EXPECT_EQ(r.kind, Kind::kAllowed) << r.why;
}

// The listed order, when legal, answers for the search (spec 2.1), but only
// where the search could not have given up: the verdicts stay the search's.
TEST(Serialization, ALegalListedOrderGivesTheSearchsVerdict) {
  // An exchange then a blind add: mixed families, one return unknown.
  std::vector<SerialOp> ops = {Op(0, Rmw::kExch, 7, 1),
                               Op(1, Rmw::kIAdd, 2, std::nullopt)};
  auto r = CheckSerialization(1, ops, std::nullopt, 1000);
  EXPECT_EQ(r.kind, Kind::kAllowed);
  EXPECT_FALSE(
      r.end.has_value());  // not known to be unique without the final word
  r = CheckSerialization(1, ops, 9, 1000);
  EXPECT_EQ(r.kind, Kind::kAllowed);
  EXPECT_EQ(r.end, 9u);
  // A budget too small for the whole search: the search answers, and gives up.
  EXPECT_EQ(CheckSerialization(1, ops, 9, 0).kind, Kind::kUnknown);
  EXPECT_EQ(CheckSerialization(1, ops, 9, 5).kind, Kind::kAllowed);
  // Every return known, nothing else orders them: the trail's answer, any
  // budget.
  std::vector<SerialOp> known = {Op(0, Rmw::kIAdd, 1, 10),
                                 Op(1, Rmw::kIAdd, 1, 11)};
  r = CheckSerialization(10, known, std::nullopt, 0);
  EXPECT_EQ(r.kind, Kind::kAllowed);
  EXPECT_EQ(r.end, 12u);
  // Listed with a group's later interval first: the search still orders them.
  SerialOp late = Op(0, Rmw::kIAdd, 1, 11), early = Op(1, Rmw::kIAdd, 1, 10);
  late.interval = 1;
  EXPECT_EQ(CheckSerialization(10, {late, early}, 12, 1000).kind,
            Kind::kAllowed);
  EXPECT_EQ(CheckSerialization(10, {late, early}, 13, 1000).kind,
            Kind::kDivergence);
}

// Searches reuse one Search's room: one search must leave nothing that
// changes the next (chains, values, dead states, budget spent).
TEST(Serialization, ASearchLeavesNothingForTheNext) {
  // Program order within chain 0 forces the search (the listed order is
  // not legal, the trail alone cannot order a chain).
  std::vector<SerialOp> small = {
      Op(0, Rmw::kIAdd, 1, 12), Op(0, Rmw::kIAdd, 2, 13),
      Op(1, Rmw::kIAdd, 1, 10), Op(1, Rmw::kIAdd, 1, 11)};
  const SerialResult first = CheckSerialization(10, small, 15, 1000);
  ASSERT_EQ(first.kind, Kind::kAllowed) << first.why;
  std::vector<SerialOp> wide;  // more chains, values and dead ends
  for (uint32_t i = 0; i < 12; ++i)
    wide.push_back(Op(i % 4, Rmw::kIMax, i, 100 + i));
  const SerialResult between = CheckSerialization(100, wide, std::nullopt, 50);
  EXPECT_NE(between.kind, Kind::kAllowed);
  const SerialResult again = CheckSerialization(10, small, 15, 1000);
  EXPECT_EQ(again.kind, first.kind);
  EXPECT_EQ(again.end, first.end);
  EXPECT_EQ(again.steps, first.steps);
  const SerialResult wrong = CheckSerialization(10, small, 16, 1000);
  EXPECT_EQ(wrong.kind, Kind::kDivergence);
  EXPECT_EQ(CheckSerialization(10, small, 16, 1000).why, wrong.why);
}

TEST(Serialization, AMillionTraceableOpsRebuildLinearly) {
  // Distinct addends from many threads, shuffled: one candidate per step.
  const uint32_t n = 1000000;
  std::vector<uint32_t> order(n);
  for (uint32_t i = 0; i < n; ++i) order[i] = i;
  isa::Prng prng(5);
  for (uint32_t i = n - 1; i > 0; --i)
    std::swap(order[i], order[prng.Below(i + 1)]);
  std::vector<SerialOp> ops(n);
  uint32_t v = 0;
  for (uint32_t k = 0; k < n; ++k) {
    const uint32_t i = order[k];
    ops[i] = Op(i, Rmw::kIAdd, 2 * i + 1, v);
    v += 2 * i + 1;
  }
  const auto r = CheckSerialization(0, ops, v, 2 * n);
  EXPECT_EQ(r.kind, Kind::kAllowed);
  // Prefix sums wrap mod 2^32 and collide now and then: a little branching.
  EXPECT_LT(r.steps, n + n / 2);
}

}  // namespace
}  // namespace atomfuzz::oracle

namespace atomfuzz::oracle {
namespace {

// Exchanges of a few repeating values by many threads, their returns those
// of a random interleaving (as a random schedule makes them): a legal order
// exists, and the search finds one within a campaign's budget. Threads that
// do the same things are interchangeable, and a dead end is not searched
// again for each permutation of them (the state key is the multiset of
// their remaining ops); candidates repeat few value pairs, so checking the
// remaining trail costs little. Before both, most such words ended unknown.
TEST(Serialization, RepeatingExchangesFromManyThreadsAreFoundWithinBudget) {
  isa::Prng prng(20261126);
  int allowed = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const uint32_t threads = 128, per = 3,
                   values = 2 + static_cast<uint32_t>(trial % 3);
    std::vector<uint32_t> next(threads, 0);
    std::vector<SerialOp> ops;
    uint32_t word = 0, left = threads * per;
    while (left > 0) {
      uint32_t t = static_cast<uint32_t>(prng.Below(threads));
      while (next[t] == per) t = (t + 1) % threads;
      const uint32_t v = (t + next[t]) % values;
      ops.push_back(Op(t, Rmw::kExch, v, word));
      word = v;
      ++next[t];
      --left;
    }
    // Listed chain by chain, in program order, as a history lists them.
    std::stable_sort(
        ops.begin(), ops.end(),
        [](const SerialOp& a, const SerialOp& b) { return a.chain < b.chain; });
    const auto r = CheckSerialization(0, ops, word, 1 << 16);
    EXPECT_EQ(r.kind, Kind::kAllowed) << "trial " << trial << ": " << r.why;
    allowed += r.kind == Kind::kAllowed;
  }
  EXPECT_EQ(allowed, 20);
}

}  // namespace
}  // namespace atomfuzz::oracle
