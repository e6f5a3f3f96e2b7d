// The fast compiler's immediate -> slot table: each value keeps the slot it
// was first given within a case, across growth, and a cleared table (the
// next case) knows none of them.
#include "targets/fast/constant_slots.h"

#include <cstdint>
#include <utility>

#include "gtest/gtest.h"

namespace atomfuzz::targets::fast {
namespace {

TEST(ConstantSlots, AValueKeepsItsFirstSlotThroughGrowth) {
  ConstantSlots slots;
  // Values that collide in few bits, and enough of them to grow the table
  // (64 entries at first) several times.
  for (uint32_t k = 0; k < 1000; ++k) {
    EXPECT_EQ(slots.FindOrAdd(k << 20, 100 + k), std::make_pair(100 + k, true))
        << k;
  }
  for (uint32_t k = 0; k < 1000; ++k) {
    EXPECT_EQ(slots.FindOrAdd(k << 20, 7), std::make_pair(100 + k, false)) << k;
  }
}

TEST(ConstantSlots, ClearForgetsEveryValue) {
  ConstantSlots slots;
  EXPECT_EQ(slots.FindOrAdd(42, 1), std::make_pair(1u, true));
  EXPECT_EQ(slots.FindOrAdd(0, 2), std::make_pair(2u, true));
  slots.Clear();
  EXPECT_EQ(slots.FindOrAdd(0, 5), std::make_pair(5u, true));
  EXPECT_EQ(slots.FindOrAdd(42, 6), std::make_pair(6u, true));
  EXPECT_EQ(slots.FindOrAdd(42, 9), std::make_pair(6u, false));
}

TEST(ConstantSlots, ManyClearsNeverResurrectAnOldValue) {
  ConstantSlots slots;
  for (uint32_t round = 0; round < 3000; ++round) {
    EXPECT_TRUE(slots.FindOrAdd(round % 7, round).second) << round;
    slots.Clear();
  }
}

}  // namespace
}  // namespace atomfuzz::targets::fast
