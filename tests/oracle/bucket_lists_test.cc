// BucketLists keeps each bucket's members in the order they joined: as a
// plain vector per bucket does, under any mix of joins, leaves and resets.
#include "oracle/internal/bucket_lists.h"

#include <algorithm>
#include <vector>

#include "gtest/gtest.h"
#include "isa/prng.h"

namespace atomfuzz::oracle {
namespace {

std::vector<uint32_t> Members(const BucketLists& b, uint32_t bucket) {
  std::vector<uint32_t> out;
  for (uint32_t m = b.First(bucket); m != BucketLists::kEnd; m = b.Next(m))
    out.push_back(m);
  return out;
}

TEST(BucketLists, KeepsJoiningOrderAcrossLeaves) {
  BucketLists b(3, 5);
  EXPECT_TRUE(Members(b, 0).empty());
  b.Join(0, 3);
  b.Join(0, 1);
  b.Join(1, 4);
  b.Join(0, 2);
  EXPECT_EQ(Members(b, 0), (std::vector<uint32_t>{3, 1, 2}));
  b.Leave(1);  // the middle
  EXPECT_EQ(Members(b, 0), (std::vector<uint32_t>{3, 2}));
  b.Leave(3);  // the first
  b.Join(0, 3);
  EXPECT_EQ(Members(b, 0), (std::vector<uint32_t>{2, 3}));
  b.Leave(3);  // the last
  b.Leave(2);
  EXPECT_TRUE(Members(b, 0).empty());
  b.Join(0, 1);
  EXPECT_EQ(Members(b, 0), (std::vector<uint32_t>{1}));
  EXPECT_EQ(Members(b, 1), (std::vector<uint32_t>{4}));
  EXPECT_TRUE(Members(b, 2).empty());
}

TEST(BucketLists, ResetEmptiesEveryBucket) {
  BucketLists b(2, 3);
  b.Join(0, 2);
  b.Join(1, 0);
  b.Reset(4, 5);  // more buckets and members than before
  for (uint32_t k = 0; k < 4; ++k) EXPECT_TRUE(Members(b, k).empty());
  b.Join(3, 4);
  b.Join(3, 2);
  EXPECT_EQ(Members(b, 3), (std::vector<uint32_t>{4, 2}));
  EXPECT_TRUE(Members(b, 0).empty());
}

TEST(BucketLists, AgreesWithAVectorPerBucket) {
  isa::Prng prng(31);
  for (int round = 0; round < 50; ++round) {
    const size_t buckets = 1 + prng.Below(6), members = 1 + prng.Below(30);
    BucketLists b(buckets, members);
    std::vector<std::vector<uint32_t>> plain(buckets);
    std::vector<uint32_t> in(members,
                             BucketLists::kEnd);  // each member's bucket
    for (int step = 0; step < 2000; ++step) {
      const uint32_t m = static_cast<uint32_t>(prng.Below(members));
      if (prng.Chance(1, 500)) {
        b.Reset(buckets, members);
        for (std::vector<uint32_t>& p : plain) p.clear();
        std::fill(in.begin(), in.end(), BucketLists::kEnd);
      } else if (in[m] == BucketLists::kEnd) {
        const uint32_t to = static_cast<uint32_t>(prng.Below(buckets));
        b.Join(to, m);
        plain[to].push_back(m);
        in[m] = to;
      } else {
        b.Leave(m);
        std::vector<uint32_t>& p = plain[in[m]];
        p.erase(std::find(p.begin(), p.end(), m));
        in[m] = BucketLists::kEnd;
      }
      for (uint32_t k = 0; k < buckets; ++k)
        ASSERT_EQ(Members(b, k), plain[k]) << step;
    }
  }
}

}  // namespace
}  // namespace atomfuzz::oracle
