// DenseIndex numbers keys 0, 1, 2, ... in the order first added, and finds
// them again across rehashes; under any mix of its operations it answers as
// a plain std::map and a vector of keys do.
#include "oracle/internal/dense_index.h"

#include <map>
#include <unordered_map>
#include <vector>

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
      const auto [it, added] =
          want.try_emplace(key, static_cast<uint32_t>(want.size()));
      EXPECT_EQ(index.Add(key), std::make_pair(it->second, added));
    } else {
      auto it = want.find(key);
      EXPECT_EQ(index.Find(key),
                it == want.end() ? DenseIndex::kAbsent : it->second);
    }
  }
  EXPECT_EQ(index.size(), want.size());
  for (const auto& [key, n] : want) EXPECT_EQ(index.key(n), key);
}

// Every operation (Add, Find, Reserve, Clear, key, size, empty), in a
// fixed-seed random mix, on keys of several shapes: small words of a few
// memories (the access log's), any 64 bits, multiples of a large power of
// two (their hashes share low bits), and the extremes.
TEST(DenseIndex, AgreesWithAPlainMapUnderEveryOperation) {
  isa::Prng prng(23);
  DenseIndex index;
  std::map<uint64_t, uint32_t> numbers;  // the plain path
  std::vector<uint64_t> keys;            // by number
  auto random_key = [&]() -> uint64_t {
    switch (prng.Below(4)) {
      case 0: return (prng.Below(4) << 32) | prng.Below(2000);
      case 1: return prng.Next64();
      case 2: return prng.Below(4096) << 40;
      default: return prng.Chance(1, 2) ? 0 : UINT64_MAX - prng.Below(3);
    }
  };
  for (int i = 0; i < 200000; ++i) {
    const uint64_t r = prng.Below(1000);
    if (r < 2) {
      index.Clear();
      numbers.clear();
      keys.clear();
    } else if (r < 4) {
      index.Reserve(prng.Below(5000));
    } else if (r < 500) {
      const uint64_t key = random_key();
      const auto [it, added] =
          numbers.emplace(key, static_cast<uint32_t>(keys.size()));
      if (added) keys.push_back(key);
      ASSERT_EQ(index.Add(key), std::make_pair(it->second, added)) << i;
    } else {
      const uint64_t key = random_key();
      const auto it = numbers.find(key);
      ASSERT_EQ(index.Find(key),
                it == numbers.end() ? DenseIndex::kAbsent : it->second)
          << i;
    }
    ASSERT_EQ(index.size(), keys.size());
    ASSERT_EQ(index.empty(), keys.empty());
    if (!keys.empty()) {
      const uint32_t n = static_cast<uint32_t>(prng.Below(keys.size()));
      ASSERT_EQ(index.key(n), keys[n]);
    }
  }
}

}  // namespace
}  // namespace atomfuzz::oracle
