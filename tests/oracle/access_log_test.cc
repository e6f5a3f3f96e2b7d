// The access log numbers words for the replay and answers race and poison
// questions (spec 2.1-2.4), also when the same question repeats.
#include "oracle/access_log.h"

#include "gtest/gtest.h"

namespace atomfuzz::oracle {
namespace {

TEST(AccessLog, RecordNumbersWordsInTheOrderFirstSeen) {
  AccessLog log;
  const MemoryId u0{false, 0, 0}, g0{true, 1, 0};
  EXPECT_EQ(log.Record(u0, 5, Access::kStore, {0, 0, 0}), 0u);
  EXPECT_EQ(log.Record(g0, 5, Access::kAtomic, {1, 1, 0}),
            1u);                                               // another memory
  EXPECT_EQ(log.Record(u0, 5, Access::kRead, {2, 1, 0}), 0u);  // the same word
  EXPECT_EQ(log.Record(u0, UINT32_MAX, Access::kAtomic, {0, 0, 0}),
            2u);  // counter
  EXPECT_EQ(log.WordCount(), 3u);
}

TEST(AccessLog, SlotsPast126ShareNumbers) {
  // The replay must not take a number for the word there (corpus e23b).
  AccessLog log;
  const MemoryId g200{true, 0, 200}, g4095{true, 0, 4095}, g126{true, 0, 126};
  EXPECT_EQ(log.Record(g200, 0, Access::kAtomic, {0, 0, 0}),
            log.Record(g4095, 0, Access::kAtomic, {0, 0, 0}));
  EXPECT_FALSE(AccessLog::NumberedAlone(g200));
  EXPECT_TRUE(AccessLog::NumberedAlone(g126));
  EXPECT_NE(log.Record(g126, 0, Access::kAtomic, {0, 0, 0}),
            log.Record(g200, 0, Access::kAtomic, {0, 0, 0}));
}

TEST(AccessLog, RepeatedPoisonQuestionsAreStillLearnedFrom) {
  const MemoryId u0{false, 0, 0};
  const Accessor reader{0, 0, 0};
  AccessLog known, seen;
  // A first pass: nothing known, the same question three times.
  for (int i = 0; i < 3; ++i) EXPECT_FALSE(known.ConcurrentPoison(u0, reader));
  seen.Record(u0, 1, Access::kRead, reader);
  seen.RecordPoison(u0, {1, 1, 0});               // another group poisons u0
  EXPECT_TRUE(known.LearnFrom(std::move(seen)));  // the answer changed
  for (int i = 0; i < 2; ++i) EXPECT_TRUE(known.ConcurrentPoison(u0, reader));
  // The thread that poisoned does not race with itself.
  EXPECT_FALSE(known.ConcurrentPoison(u0, {1, 1, 0}));
  AccessLog again;
  again.Record(u0, 1, Access::kRead, reader);
  again.RecordPoison(u0, {1, 1, 0});
  EXPECT_FALSE(known.LearnFrom(std::move(again)));  // nothing new
}

TEST(AccessLog, ConcurrentKindsOnlyAcrossThreadsThatRace) {
  const MemoryId u0{false, 0, 0}, g0{true, 0, 0};
  AccessLog seen;
  seen.Record(u0, 2, Access::kAtomic, {0, 0, 0});
  seen.Record(u0, 2, Access::kStore, {5, 1, 0});  // another group
  seen.Record(g0, 2, Access::kStore, {1, 0, 0});  // same group, same interval
  seen.Record(g0, 3, Access::kStore, {1, 0, 1});  // a later interval
  AccessLog known;
  known.LearnFrom(std::move(seen));
  const uint8_t writes =
      AccessLog::Bit(Access::kStore) | AccessLog::Bit(Access::kAtomic);
  EXPECT_EQ(known.ConcurrentKinds(u0, 2, writes, {0, 0, 0}),
            AccessLog::Bit(Access::kStore));
  EXPECT_EQ(known.ConcurrentKinds(u0, 2, writes, {5, 1, 0}),
            AccessLog::Bit(Access::kAtomic));
  EXPECT_TRUE(known.ConcurrentAny(g0, 2, writes, {0, 0, 0}));
  EXPECT_FALSE(
      known.ConcurrentAny(g0, 3, writes, {0, 0, 0}));  // ordered by the barrier
  EXPECT_FALSE(known.ConcurrentAny(u0, 9, writes, {0, 0, 0}));  // never touched
}

TEST(AccessLog, PoisonFoundFromAnyWordKeyOfItsMemory) {
  // A TGSM poison stands for all of the group's g#, past 126 too; a UAV's
  // for that UAV alone.
  const MemoryId g3{true, 2, 3}, g200{true, 2, 200}, other_group{true, 1, 3};
  const MemoryId u1{false, 0, 1}, u2{false, 0, 2};
  AccessLog seen;
  seen.RecordPoison(g3, {0, 2, 0});
  seen.RecordPoison(u1, {0, 2, 0});
  AccessLog known;
  known.LearnFrom(std::move(seen));
  const Accessor other{9, 2, 0};
  for (const MemoryId& m : {g3, g200, u1}) {
    EXPECT_TRUE(known.ConcurrentPoison(AccessLog::WordKey(m, 7), other));
    EXPECT_TRUE(known.ConcurrentPoison(m, other));
  }
  for (const MemoryId& m : {other_group, u2}) {
    EXPECT_FALSE(known.ConcurrentPoison(AccessLog::WordKey(m, 7), other));
    EXPECT_FALSE(known.ConcurrentPoison(m, other));
  }
  // The key overloads answer as the MemoryId ones.
  EXPECT_EQ(known.Record(AccessLog::WordKey(u2, 4), Access::kStore, {1, 0, 0}),
            known.Record(u2, 4, Access::kRead, {1, 0, 0}));
}

}  // namespace
}  // namespace atomfuzz::oracle
