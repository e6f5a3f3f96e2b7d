// TraceIndex finds an event by its key, the first of duplicates, nothing
// for a key the trace lacks, and keeps working when rebuilt for another
// trace (its room reused): as a plain std::map filled by emplace does.
#include "oracle/internal/trace_index.h"

#include <array>
#include <map>
#include <tuple>
#include <vector>

#include "gtest/gtest.h"
#include "isa/prng.h"

namespace atomfuzz::oracle {
namespace {

isa::AtomicEvent Event(uint32_t group, uint32_t thread, uint32_t instruction,
                       uint32_t occurrence) {
  isa::AtomicEvent e;
  e.group = {group, 0, 0};
  e.thread = {thread % 8, thread / 8, 0};
  e.instruction = instruction;
  e.occurrence = occurrence;
  return e;
}

uint32_t Find(const TraceIndex& index, const isa::AtomicEvent& e) {
  return index.Find(e.group, e.thread, e.instruction, e.occurrence);
}

TEST(TraceIndex, FindsEveryEventAndNothingElse) {
  std::vector<isa::AtomicEvent> trace;
  for (uint32_t g = 0; g < 3; ++g) {
    for (uint32_t t = 0; t < 64; ++t) {
      for (uint32_t o = 0; o < 3; ++o)
        trace.push_back(Event(g, t, 7 + o % 2, o));
    }
  }
  TraceIndex index;
  index.Build(trace);
  for (uint32_t i = 0; i < trace.size(); ++i)
    EXPECT_EQ(Find(index, trace[i]), i);
  EXPECT_EQ(Find(index, Event(3, 0, 7, 0)), TraceIndex::kAbsent);
  EXPECT_EQ(Find(index, Event(0, 64, 7, 0)), TraceIndex::kAbsent);
  EXPECT_EQ(Find(index, Event(0, 0, 8, 0)), TraceIndex::kAbsent);
  EXPECT_EQ(Find(index, Event(0, 0, 7, 3)), TraceIndex::kAbsent);
  isa::AtomicEvent z = Event(1, 5, 7, 0);
  z.group[2] = 1;  // every coordinate is part of the key
  EXPECT_EQ(Find(index, z), TraceIndex::kAbsent);
}

TEST(TraceIndex, DuplicatesFindTheFirst) {
  const std::vector<isa::AtomicEvent> trace = {
      Event(0, 1, 4, 0), Event(0, 2, 4, 0), Event(0, 1, 4, 0),
      Event(0, 2, 4, 1)};
  TraceIndex index;
  index.Build(trace);
  EXPECT_EQ(Find(index, trace[2]), 0u);
  EXPECT_EQ(Find(index, trace[3]), 3u);
}

TEST(TraceIndex, RebuiltForASmallerOrEmptyTrace) {
  std::vector<isa::AtomicEvent> big;
  for (uint32_t t = 0; t < 500; ++t) big.push_back(Event(0, t, 9, 0));
  TraceIndex index;
  index.Build(big);
  const std::vector<isa::AtomicEvent> small = {Event(0, 3, 9, 0)};
  index.Build(small);
  EXPECT_EQ(Find(index, small[0]), 0u);
  EXPECT_EQ(Find(index, big[4]), TraceIndex::kAbsent);
  const std::vector<isa::AtomicEvent> none;
  index.Build(none);
  EXPECT_EQ(Find(index, small[0]), TraceIndex::kAbsent);
}

// Random traces of up to a few thousand events, with repeated keys, built
// one after another into one index, against a std::map of the keys
// (emplace keeps the first), asked for events and for near misses.
TEST(TraceIndex, AgreesWithAPlainMapOnRandomTraces) {
  using Key = std::tuple<std::array<uint32_t, 3>, std::array<uint32_t, 3>,
                         uint32_t, uint32_t>;
  auto key_of = [](const isa::AtomicEvent& e) {
    return Key{e.group, e.thread, e.instruction, e.occurrence};
  };
  isa::Prng prng(29);
  // Few values per coordinate, so that keys repeat and differ in one.
  auto small = [&] { return static_cast<uint32_t>(prng.Below(3)); };
  auto random_event = [&] {
    isa::AtomicEvent e;
    e.group = {small(), small(), small()};
    e.thread = {small(), small(), static_cast<uint32_t>(prng.Below(40))};
    e.instruction = small();
    e.occurrence = small();
    return e;
  };
  TraceIndex index;
  for (int round = 0; round < 200; ++round) {
    const size_t n = prng.Below(round % 10 == 0 ? 4000 : 100);
    std::vector<isa::AtomicEvent> trace;
    for (size_t i = 0; i < n; ++i) trace.push_back(random_event());
    std::map<Key, uint32_t> first;
    for (uint32_t i = 0; i < n; ++i) first.emplace(key_of(trace[i]), i);
    index.Build(trace);
    for (int q = 0; q < 300; ++q) {
      isa::AtomicEvent e;
      if (n > 0 && prng.Chance(1, 2)) {
        e = trace[prng.Below(n)];
        if (prng.Chance(1, 2)) e.thread[prng.Below(3)] ^= 1;  // a near miss
      } else {
        e = random_event();
      }
      const auto it = first.find(key_of(e));
      ASSERT_EQ(Find(index, e),
                it == first.end() ? TraceIndex::kAbsent : it->second)
          << "round " << round;
    }
  }
}

}  // namespace
}  // namespace atomfuzz::oracle
