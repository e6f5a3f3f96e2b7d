// RacingRead: what a read may see of a word other threads write while it
// runs. Every value a legal order lets it see must be in its set (a missing
// one would be a false alarm); values no order gives should not be.
#include "oracle/racing_read.h"

#include <vector>

#include "gtest/gtest.h"

namespace atomfuzz::oracle {
namespace {

using isa::Rmw;

WriteRecord Store(uint32_t thread, uint32_t seq, uint32_t value,
                  uint32_t interval = 0, uint32_t group = 0) {
  return {{thread, group, interval}, seq, true, Rmw::kNone,
          Value::Of(value),          {}};
}
WriteRecord Atomic(uint32_t thread, uint32_t seq, Rmw rmw, uint32_t src0,
                   uint32_t interval = 0, uint32_t group = 0) {
  return {{thread, group, interval}, seq,         false, rmw,
          Value::Of(src0),           Value::Of(0)};
}

// The values of `v`, sorted; {} for an undefined value.
std::vector<uint32_t> ValuesOf(const Value& v, const ValueSets& sets) {
  uint32_t one;
  const absl::Span<const uint32_t> e = sets.Elements(v, one);
  return {e.begin(), e.end()};
}

std::vector<uint32_t> Read(const std::vector<WriteRecord>& writes,
                           Accessor reader, uint32_t seq, bool tgsm,
                           Value initial) {
  ValueSets sets;
  return ValuesOf(RacingRead(writes, reader, seq, tgsm, initial, sets), sets);
}

TEST(RacingRead, AStoreRacingWithTheReadGivesTheOldOrTheNewValue) {
  EXPECT_EQ(Read({Store(1, 0, 5)}, {0, 0, 0}, 0, false, Value::Of(3)),
            (std::vector<uint32_t>{3, 5}));
}

TEST(RacingRead, OwnWritesComeFirstAndLaterOnesAreNotSeen) {
  // Thread 0 stores 4, reads (seq 1), then stores 6; thread 1 stores 5.
  EXPECT_EQ(Read({Store(0, 0, 4), Store(1, 0, 5), Store(0, 2, 6)}, {0, 0, 0}, 1,
                 false, Value::Of(3)),
            (std::vector<uint32_t>{4, 5}));
}

TEST(RacingRead, AWriteBeforeABarrierIsSeenOrOverwritten) {
  // Thread 1 stored 9 before the barrier both passed; thread 2 stores 8
  // after it, racing with the read.
  EXPECT_EQ(
      Read({Store(1, 0, 9, 0), Store(2, 0, 8, 1)}, {0, 0, 1}, 0, true, Value{}),
      (std::vector<uint32_t>{8, 9}));
}

TEST(RacingRead, EveryPrefixOfEachThreadsAddsIsSeen) {
  // From 0, thread 0 adds 1 then 2; thread 1 adds 10.
  EXPECT_EQ(Read({Atomic(0, 0, Rmw::kIAdd, 1), Atomic(0, 1, Rmw::kIAdd, 2),
                  Atomic(1, 0, Rmw::kIAdd, 10)},
                 {2, 0, 0}, 0, false, Value::Of(0)),
            (std::vector<uint32_t>{0, 1, 3, 10, 11, 13}));
}

TEST(RacingRead, AfterItsOwnMaxAThreadSeesAtLeastItsOperand) {
  EXPECT_EQ(Read({Atomic(0, 0, Rmw::kUMax, 7), Atomic(1, 0, Rmw::kUMax, 3),
                  Atomic(2, 0, Rmw::kUMax, 9)},
                 {0, 0, 0}, 1, false, Value::Of(0)),
            (std::vector<uint32_t>{7, 9}));
}

TEST(RacingRead, WritesThatDoNotCommuteMayFallBeforeTheReadersOwn) {
  // From 5: thread 0 adds 1, then reads; thread 1 umax 10 may come before
  // or after it: 6, 10 or 11 (umax then add).
  const std::vector<uint32_t> seen =
      Read({Atomic(0, 0, Rmw::kIAdd, 1), Atomic(1, 0, Rmw::kUMax, 10)},
           {0, 0, 0}, 1, false, Value::Of(5));
  for (uint32_t v : {6u, 10u, 11u}) {
    EXPECT_NE(std::find(seen.begin(), seen.end(), v), seen.end()) << v;
  }
}

TEST(RacingRead, AnExchangeChainGivesItsValues) {
  EXPECT_EQ(Read({Atomic(1, 0, Rmw::kExch, 7), Atomic(2, 0, Rmw::kExch, 8)},
                 {0, 0, 0}, 0, false, Value::Of(1)),
            (std::vector<uint32_t>{1, 7, 8}));
}

TEST(RacingRead, AnotherGroupsWriteIsUndefined) {  // spec 2.3, E-34
  EXPECT_TRUE(
      Read({Store(4, 0, 5, 0, 1)}, {0, 0, 0}, 0, false, Value::Of(3)).empty());
}

TEST(RacingRead, OnTgsmAStoreRacingWithAnAtomicIsUndefined) {  // E-27
  EXPECT_TRUE(
      Read({Store(0, 0, 1), Store(1, 0, 5, 1), Atomic(2, 0, Rmw::kIAdd, 1, 1)},
           {3, 0, 1}, 0, true, Value{})
          .empty());
}

TEST(RacingRead, UninitialisedTgsmWithNothingBeforeIsUndefined) {  // E-22
  EXPECT_TRUE(Read({Store(1, 0, 5)}, {0, 0, 0}, 0, true, Value{}).empty());
}

TEST(RacingRead, TooManyValuesAreUndefined) {
  std::vector<WriteRecord> writes;
  for (uint32_t t = 1; t <= 70; ++t) writes.push_back(Store(t, 0, t));
  EXPECT_TRUE(Read(writes, {0, 0, 0}, 0, false, Value::Of(0)).empty());
}

}  // namespace
}  // namespace atomfuzz::oracle
