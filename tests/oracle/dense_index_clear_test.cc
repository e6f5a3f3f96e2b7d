// DenseIndex::Clear forgets every key (colliding ones included) and the
// index works as new afterwards, in the room it kept.
#include <unordered_map>

#include "gtest/gtest.h"
#include "isa/prng.h"
#include "oracle/internal/dense_index.h"

namespace atomfuzz::oracle {
namespace {

TEST(DenseIndexClear, ForgetsEverythingAndWorksAsNew) {
  isa::Prng prng(5);
  DenseIndex index;
  for (int round = 0; round < 6; ++round) {
    // A large round, then small ones: the table stays large and sparse.
    const int adds = round == 1 ? 3000 : 40;
    std::unordered_map<uint64_t, uint32_t> want;
    for (int i = 0; i < adds; ++i) {
      const uint64_t key = (prng.Below(4) << 32) | prng.Below(5000);
      const auto [it, added] =
          want.try_emplace(key, static_cast<uint32_t>(want.size()));
      ASSERT_EQ(index.Add(key), std::make_pair(it->second, added));
    }
    for (const auto& [key, n] : want) ASSERT_EQ(index.Find(key), n);
    index.Clear();
    EXPECT_TRUE(index.empty());
    for (const auto& [key, n] : want)
      ASSERT_EQ(index.Find(key), DenseIndex::kAbsent);
  }
}

}  // namespace
}  // namespace atomfuzz::oracle
