// BucketLists keeps each bucket's members in the order they joined.
#include "oracle/internal/bucket_lists.h"

#include <vector>

#include "gtest/gtest.h"

namespace atomfuzz::oracle {
namespace {

std::vector<uint32_t> Members(const BucketLists& b, uint32_t bucket) {
  std::vector<uint32_t> out;
  for (uint32_t m = b.First(bucket); m != BucketLists::kEnd; m = b.Next(m)) out.push_back(m);
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

}  // namespace
}  // namespace atomfuzz::oracle
