// TempBits, the uniformity pass's set of varying r#.c components.
#include "isa/temp_bits.h"

#include "gtest/gtest.h"

namespace atomfuzz::isa {
namespace {

TEST(TempBits, SubsetOfComparesEveryWord) {
  TempBits a(130, false), b(130, false);
  EXPECT_TRUE(a.SubsetOf(b));
  a.Set(129, true);  // in the third word
  EXPECT_FALSE(a.SubsetOf(b));
  b.Set(129, true);
  b.Set(3, true);
  EXPECT_TRUE(a.SubsetOf(b));
  EXPECT_FALSE(b.SubsetOf(a));
  EXPECT_TRUE(b.SubsetOf(TempBits(130, true)));
}

TEST(TempBits, UnionReportsNewBitsOnly) {
  TempBits a(8, false), b(8, false);
  b.Set(5, true);
  EXPECT_TRUE(a.Union(b));
  EXPECT_FALSE(a.Union(b));
  EXPECT_TRUE(a.Get(5));
}

}  // namespace
}  // namespace atomfuzz::isa
