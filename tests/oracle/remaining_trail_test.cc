// RemainingTrail answers as CheckTrail does on the ops not yet placed, as a
// search places and takes back ops (last placed first).
#include "oracle/internal/remaining_trail.h"

#include <map>
#include <optional>
#include <vector>

#include "gtest/gtest.h"
#include "isa/prng.h"
#include "oracle/value_graph.h"

namespace atomfuzz::oracle {
namespace {

using isa::Rmw;

SerialOp Op(Rmw rmw, uint32_t src0, uint32_t returned) {
  SerialOp o;
  o.rmw = rmw;
  o.src0 = src0;
  o.returned = returned;
  return o;
}

bool Reference(uint32_t at, const std::vector<SerialOp>& ops,
               const std::vector<bool>& placed,
               std::optional<uint32_t> final_value) {
  std::vector<const SerialOp*> left;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (!placed[i]) left.push_back(&ops[i]);
  }
  return CheckTrail(at, left, final_value).ok;
}

uint32_t Before(const SerialOp& o) {
  return o.rmw == Rmw::kConsume ? *o.returned + 1 : *o.returned;
}
uint32_t After(const SerialOp& o) { return SerialApply(o, Before(o)); }

// The graph of `ops` as the search numbers it: values by first sight.
RemainingTrail Trail(const std::vector<SerialOp>& ops,
                     std::optional<uint32_t> final_value) {
  std::map<uint32_t, uint32_t> ids;
  auto id = [&](uint32_t v) {
    return ids.try_emplace(v, static_cast<uint32_t>(ids.size())).first->second;
  };
  std::vector<RemainingTrail::Edge> edges;
  for (const SerialOp& o : ops) {
    const uint32_t before = id(Before(o));
    edges.push_back({before, id(After(o))});
  }
  uint32_t end = RemainingTrail::kAnyEnd;
  if (final_value) {
    end = ids.count(*final_value) ? ids[*final_value] : RemainingTrail::kNoEnd;
  }
  return RemainingTrail(edges, ids.size(), end);
}

// 0 -> 5 -> 7 -> 9 by exchanges.
std::vector<SerialOp> ExchangeChainOps() {
  return {Op(Rmw::kExch, 5, 0), Op(Rmw::kExch, 7, 5), Op(Rmw::kExch, 9, 7)};
}

TEST(RemainingTrail, ExchangeChain) {
  const std::vector<SerialOp> ops = ExchangeChainOps();
  RemainingTrail t = Trail(ops, 9);
  t.Place(0);
  EXPECT_TRUE(t.PossibleAfter(0));
  t.Unplace(0);
  t.Place(1);  // 5 -> 7 first: 0 -> 5 is left behind
  EXPECT_FALSE(t.PossibleAfter(1));
  t.Unplace(1);
  RemainingTrail other_end = Trail(ops, 7);
  other_end.Place(0);
  EXPECT_FALSE(other_end.PossibleAfter(0));
}

TEST(RemainingTrail, ResetIsAsNew) {
  // Placed ops and the end of one graph must not carry over to the next.
  const std::vector<SerialOp> ops = ExchangeChainOps();
  RemainingTrail t = Trail(ops, 7);
  t.Place(0);
  EXPECT_FALSE(t.PossibleAfter(0));
  // 0 -> 5 -> 7 -> 9 again, ending at 9 (id 3): as ExchangeChain.
  const std::vector<RemainingTrail::Edge> edges = {{0, 1}, {1, 2}, {2, 3}};
  t.Reset(edges, 4, 3);
  t.Place(0);
  EXPECT_TRUE(t.PossibleAfter(0));
  t.Unplace(0);
  t.Place(1);
  EXPECT_FALSE(t.PossibleAfter(1));
}

TEST(RemainingTrail, AConsumeSawOneMoreThanItReturns) {
  std::vector<SerialOp> ops = {Op(Rmw::kConsume, 0, 1),
                               Op(Rmw::kConsume, 0, 0)};
  RemainingTrail t = Trail(ops, 0);
  t.Place(0);  // 2 -> 1
  EXPECT_TRUE(t.PossibleAfter(0));
}

TEST(RemainingTrail, AgreesWithCheckTrailOnRandomWalks) {
  isa::Prng prng(11);
  const Rmw kinds[] = {Rmw::kIAdd, Rmw::kExch,  Rmw::kUMax,
                       Rmw::kOr,   Rmw::kAlloc, Rmw::kConsume};
  for (int round = 0; round < 300; ++round) {
    // Few distinct values, so trails branch, join and break.
    const size_t n = 1 + prng.Below(12);
    std::vector<SerialOp> ops;
    for (size_t i = 0; i < n; ++i) {
      ops.push_back(Op(kinds[prng.Below(6)],
                       static_cast<uint32_t>(prng.Below(3)),
                       static_cast<uint32_t>(prng.Below(5))));
    }
    std::optional<uint32_t> final_value;
    if (prng.Chance(1, 2)) final_value = static_cast<uint32_t>(prng.Below(6));
    RemainingTrail t = Trail(ops, final_value);
    std::vector<bool> placed(n, false);
    std::vector<size_t> stack;
    for (int step = 0; step < 40; ++step) {
      if (!stack.empty() && (stack.size() == n || prng.Chance(1, 3))) {
        t.Unplace(stack.back());
        placed[stack.back()] = false;
        stack.pop_back();
        continue;
      }
      size_t op;
      do op = prng.Below(n);
      while (placed[op]);
      t.Place(op);
      placed[op] = true;
      stack.push_back(op);
      EXPECT_EQ(t.PossibleAfter(op),
                Reference(After(ops[op]), ops, placed, final_value))
          << "round " << round << " step " << step;
    }
  }
}

}  // namespace
}  // namespace atomfuzz::oracle
