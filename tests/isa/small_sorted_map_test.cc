// SmallSortedMap must behave as the std::map it replaced in the validator:
// first insert wins, lookups find what was added, visits go in key order,
// before and after it spills to a std::map.
#include "isa/small_sorted_map.h"

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "isa/prng.h"

namespace atomfuzz::isa {
namespace {

using Pairs = std::vector<std::pair<uint32_t, int>>;

Pairs Visit(const SmallSortedMap<uint32_t, int>& m) {
  Pairs out;
  m.ForEach([&](uint32_t k, int v) { out.emplace_back(k, v); });
  return out;
}

TEST(SmallSortedMap, FirstInsertWinsAndVisitsInKeyOrder) {
  SmallSortedMap<uint32_t, int> m;
  EXPECT_TRUE(m.emplace(5, 50));
  EXPECT_TRUE(m.emplace(1, 10));
  EXPECT_FALSE(m.emplace(5, 99));
  EXPECT_TRUE(m.emplace(3, 30));
  EXPECT_EQ(Visit(m), (Pairs{{1, 10}, {3, 30}, {5, 50}}));
  ASSERT_NE(m.find(5), nullptr);
  EXPECT_EQ(*m.find(5), 50);
  EXPECT_EQ(m.find(4), nullptr);
  EXPECT_FALSE(m.contains(0));
  m[4] += 7;
  m[5] += 1;
  EXPECT_EQ(Visit(m), (Pairs{{1, 10}, {3, 30}, {4, 7}, {5, 51}}));
}

// Random keys, many of them repeated, far past the spill point.
TEST(SmallSortedMap, MatchesStdMapPastTheSpill) {
  Prng p(7);
  for (uint64_t limit : {uint64_t{10}, uint64_t{70}, uint64_t{1000}}) {
    SmallSortedMap<uint32_t, int> m;
    std::map<uint32_t, int> want;
    for (int i = 0; i < 300; ++i) {
      const auto k = static_cast<uint32_t>(p.Below(limit));
      if (p.Below(2) == 0) {
        EXPECT_EQ(m.emplace(k, i), want.emplace(k, i).second);
      } else {
        m[k] += i;
        want[k] += i;
      }
      const auto probe = static_cast<uint32_t>(p.Below(limit));
      EXPECT_EQ(m.contains(probe), want.contains(probe));
    }
    EXPECT_EQ(Visit(m), Pairs(want.begin(), want.end()));
  }
}

}  // namespace
}  // namespace atomfuzz::isa
