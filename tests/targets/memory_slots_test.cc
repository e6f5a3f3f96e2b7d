// The fast compiler's u#/g# slot -> memory table: low slots (the array)
// and high ones (the map) alike keep the last memory set, and a cleared
// table (the next case) knows none of them.
#include "targets/fast/memory_slots.h"

#include <cstdint>

#include "gtest/gtest.h"

namespace atomfuzz::targets::fast {
namespace {

TEST(MemorySlots, LowAndHighSlotsKeepTheLastMemorySet) {
  MemorySlots slots;
  for (uint32_t s : {0u, 7u, 63u, 64u, 1000u, 0xFFFFFFFFu})
    EXPECT_EQ(slots.Find(s), -1) << s;
  slots.Set(0, 3);
  slots.Set(63, 4);
  slots.Set(64, 5);
  slots.Set(0xFFFFFFFFu, 6);
  slots.Set(63, 7);  // declared again: the later one serves
  EXPECT_EQ(slots.Find(0), 3);
  EXPECT_EQ(slots.Find(63), 7);
  EXPECT_EQ(slots.Find(64), 5);
  EXPECT_EQ(slots.Find(0xFFFFFFFFu), 6);
  EXPECT_EQ(slots.Find(1), -1);
  EXPECT_EQ(slots.Find(65), -1);
}

TEST(MemorySlots, ClearForgetsEverySlot) {
  MemorySlots slots;
  slots.Set(2, 0);
  slots.Set(2, 1);
  slots.Set(100, 2);
  slots.Clear();
  EXPECT_EQ(slots.Find(2), -1);
  EXPECT_EQ(slots.Find(100), -1);
  slots.Set(5, 9);
  EXPECT_EQ(slots.Find(5), 9);
  EXPECT_EQ(slots.Find(2), -1);
}

}  // namespace
}  // namespace atomfuzz::targets::fast
