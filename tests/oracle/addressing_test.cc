// Address classes of spec 1.3 and E-12..E-21.
#include "oracle/addressing.h"

#include "gtest/gtest.h"

namespace atomfuzz::oracle {
namespace {

using isa::AddressClass;

Layout Raw(uint64_t words, bool tgsm = false) {
  Layout l;
  l.kind = Layout::Kind::kRaw;
  l.words = words;
  l.tgsm = tgsm;
  return l;
}

Layout Structured(uint32_t stride, uint32_t elements, bool tgsm = false) {
  Layout l;
  l.kind = Layout::Kind::kStructured;
  l.stride = stride;
  l.elements = elements;
  l.words = uint64_t{stride / 4} * elements;
  l.tgsm = tgsm;
  return l;
}

TEST(Addressing, RawLastWordAndFirstOutOfBounds) {  // E-12
  const Layout l = Raw(16);
  EXPECT_EQ(ResolveAtomic(l, {60, 0, 0}).cls, AddressClass::kInBounds);
  EXPECT_EQ(ResolveAtomic(l, {60, 0, 0}).word, 15u);
  EXPECT_EQ(ResolveAtomic(l, {64, 0, 0}).cls, AddressClass::kSkip);
  // 0xFFFFFFFC + 4 wraps to 0 in 32 bits; the spec's bounds do not.
  EXPECT_EQ(ResolveAtomic(l, {0xFFFFFFFC, 0, 0}).cls, AddressClass::kSkip);
}

TEST(Addressing, MisalignedPoisonsEvenOutOfBounds) {  // E-13, E-16
  EXPECT_EQ(ResolveAtomic(Raw(16), {2, 0, 0}).cls, AddressClass::kUavPoison);
  EXPECT_EQ(ResolveAtomic(Raw(16), {65, 0, 0}).cls, AddressClass::kUavPoison);
  EXPECT_EQ(ResolveAtomic(Raw(16, true), {3, 0, 0}).cls,
            AddressClass::kTgsmPoison);
}

TEST(Addressing, StructuredIndexAndOffset) {  // E-14, E-16
  const Layout l = Structured(16, 4);
  EXPECT_EQ(ResolveAtomic(l, {3, 12, 0}).word, 15u);
  EXPECT_EQ(ResolveAtomic(l, {4, 0, 0}).cls, AddressClass::kSkip);
  // Offset == stride poisons although the address is inside structure 1.
  EXPECT_EQ(ResolveAtomic(l, {0, 16, 0}).cls, AddressClass::kUavPoison);
  EXPECT_EQ(ResolveAtomic(l, {9, 16, 0}).cls, AddressClass::kUavPoison);
}

TEST(Addressing, StructuredIndexDoesNotWrap) {  // E-17
  const Layout l = Structured(16, 4);
  EXPECT_EQ(ResolveAtomic(l, {0x40000001, 0, 0}).cls, AddressClass::kSkip);
}

TEST(Addressing, TgsmOutOfBoundsPoisonsAllTgsm) {  // E-21
  EXPECT_EQ(ResolveAtomic(Raw(4, true), {16, 0, 0}).cls,
            AddressClass::kTgsmPoison);
  EXPECT_EQ(ResolveAtomic(Structured(8, 2, true), {2, 0, 0}).cls,
            AddressClass::kTgsmPoison);
}

TEST(Addressing, TypedCoordinatesAtTheExtents) {  // E-18, E-19, E-20
  Layout l;
  l.kind = Layout::Kind::kTyped;
  l.dim = isa::Dim::kTexture2DArray;
  l.size = {4, 3, 2};
  l.words = 24;
  EXPECT_EQ(ResolveAtomic(l, {3, 2, 1}).word, 3u + 4 * (2 + 3 * 1));
  EXPECT_EQ(ResolveAtomic(l, {4, 0, 0}).cls, AddressClass::kSkip);
  EXPECT_EQ(ResolveAtomic(l, {0, 3, 0}).cls, AddressClass::kSkip);
  EXPECT_EQ(ResolveAtomic(l, {0, 0, 2}).cls, AddressClass::kSkip);
  EXPECT_EQ(ResolveAtomic(l, {0x80000000, 0, 0}).cls, AddressClass::kSkip);
  l.dim = isa::Dim::kBuffer;
  l.size = {5, 1, 1};
  EXPECT_EQ(ResolveAtomic(l, {4, 99, 99}).word,
            4u);  // extra components ignored
  EXPECT_EQ(ResolveAtomic(l, {5, 0, 0}).cls, AddressClass::kSkip);
}

TEST(Addressing, RangesForLoadsAndStores) {  // spec 1.7
  const WordRange r = ResolveRange(Raw(4), 0, 8, 4);
  EXPECT_FALSE(r.misaligned);
  EXPECT_EQ(r.first_word, 2u);
  EXPECT_TRUE(r.in_bounds[1]);
  EXPECT_FALSE(r.in_bounds[2]);
  EXPECT_TRUE(ResolveRange(Structured(8, 2), 0, 4, 2).offset_overflow);
  EXPECT_TRUE(ResolveRange(Structured(8, 2), 2, 0, 1).index_oob);
}

}  // namespace
}  // namespace atomfuzz::oracle
