// DenseIndex numbers keys 0, 1, 2, ... in the order first added, and finds
// them again across rehashes.
#include "oracle/internal/dense_index.h"

#include <unordered_map>

#include "gtest/gtest.h"
#include "isa/prng.h"

namespace atomfuzz::oracle {
namespace {

TEST(DenseIndex, NumbersInFirstSeenOrder) {
  DenseIndex index;
  EXPECT_TRUE(index.empty());
  EXPECT_EQ(index.Find(7), DenseIndex::kAbsent);
  EXPECT_EQ(index.Add(7), std::make_pair(0u, true));
  EXPECT_EQ(index.Add(uint64_t{1} << 63), std::make_pair(1u, true));
  EXPECT_EQ(index.Add(7), std::make_pair(0u, false));
  EXPECT_EQ(index.Find(uint64_t{1} << 63), 1u);
  EXPECT_EQ(index.Find(8), DenseIndex::kAbsent);
  EXPECT_EQ(index.size(), 2u);
  EXPECT_EQ(index.key(1), uint64_t{1} << 63);
}

TEST(DenseIndex, AgreesWithAMapAcrossGrowth) {
  isa::Prng prng(3);
  DenseIndex index;
  index.Reserve(5);
  std::unordered_map<uint64_t, uint32_t> want;
  for (int i = 0; i < 20000; ++i) {
    // Words of a few memories, as the access log's keys are.
    const uint64_t key = (prng.Below(4) << 32) | prng.Below(3000);
    if (prng.Chance(1, 2)) {
      const auto [it, added] = want.try_emplace(key, static_cast<uint32_t>(want.size()));
      EXPECT_EQ(index.Add(key), std::make_pair(it->second, added));
    } else {
      auto it = want.find(key);
      EXPECT_EQ(index.Find(key), it == want.end() ? DenseIndex::kAbsent : it->second);
    }
  }
  EXPECT_EQ(index.size(), want.size());
  for (const auto& [key, n] : want) EXPECT_EQ(index.key(n), key);
}

}  // namespace
}  // namespace atomfuzz::oracle
