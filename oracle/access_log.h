// Which threads touched which memory words how, summarised so a later pass
// can ask "does another thread access this word concurrently with me?"
// (spec 2.1-2.4, E-27, E-28, E-34). Also records poison events (spec 1.3),
// which make a whole UAV, or a group's whole TGSM, undefined.
//
// Concurrency: two accesses by different threads are concurrent when they
// are in different groups (UAVs only: there is no inter-group sync, 2.2), or
// in the same group and the same barrier interval (no sync_*_t with the
// relevant fence between them).
#ifndef ATOMFUZZ_ORACLE_ACCESS_LOG_H_
#define ATOMFUZZ_ORACLE_ACCESS_LOG_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "isa/opcode_table.h"
#include "oracle/internal/dense_index.h"
#include "oracle/value.h"

namespace atomfuzz::oracle {

enum class Access : uint8_t { kRead, kStore, kAtomic };

// A memory: a UAV slot, or one group's g# slot.
struct MemoryId {
  bool tgsm = false;
  uint32_t group = 0;  // linear group index (TGSM only)
  uint32_t slot = 0;
  bool operator==(const MemoryId&) const = default;
  template <typename H>
  friend H AbslHashValue(H h, const MemoryId& m) {
    return H::combine(std::move(h), m.tgsm, m.group, m.slot);
  }
};

struct Accessor {
  uint32_t thread;    // global thread index
  uint32_t group;     // linear group index
  uint32_t interval;  // barrier interval within the group for this memory
  bool operator==(const Accessor&) const = default;
};

// Whether two accesses to one memory by `a` and `b` are concurrent: other
// threads, in other groups (u# only: there is no sync between groups, spec
// 2.2) or in one barrier interval of one group.
inline bool Concurrent(const Accessor& a, const Accessor& b, bool tgsm) {
  if (a.thread == b.thread) return false;
  if (a.group != b.group) return !tgsm;
  return a.interval == b.interval;
}

// One write to a word that reads race with, as a later pass needs it to say
// what such a read may see (racing_read.h).
struct WriteRecord {
  Accessor by;
  uint32_t seq = 0;    // the writer's memory accesses before this one
  bool store = false;  // else an atomic of `rmw`
  isa::Rmw rmw = isa::Rmw::kNone;
  Value a, b;  // a store's value; an atomic's src0 and src1
  bool operator==(const WriteRecord&) const = default;
};

class AccessLog {
 public:
  static constexpr uint8_t Bit(Access k) {
    return uint8_t{1} << static_cast<int>(k);
  }
  // Asked with the kinds of ConcurrentKinds, answered where two threads'
  // stores to the word race with each other (whoever they are).
  static constexpr uint8_t kStoreRace = uint8_t{1} << 3;
  // PoisonedEver's question, alone in its query.
  static constexpr uint8_t kPoisonedEver = uint8_t{1} << 4;

  // Returns the word's number: words are numbered 0, 1, 2, ... in the order
  // this log first saw them, so a number names one word for as long as the
  // log lives (the replay finds a word's open history by it), if
  // NumberedAlone(m): g# slots past 126 share their words' numbers (WordKey).
  uint32_t Record(const MemoryId& m, uint32_t word, Access kind,
                  const Accessor& a) {
    return Record(WordKey(m, word), kind, a);
  }
  // (memory, word) in one integer, computed once per access: Record and
  // the questions below also take it, as the judge asks several about each
  // access, and hashing it is far cheaper than hashing the fields one by one.
  static uint64_t WordKey(const MemoryId& m, uint32_t word) {
    // tgsm: 1 bit, group: 24 bits (UAVs: 0), slot: 7 bits (0..63; 127 is
    // all of a group's g#, for TGSM poison), then the word.
    const uint64_t slot = m.slot > kLastKeySlot ? 127 : m.slot;
    const uint64_t memory = (uint64_t{m.tgsm} << 31) |
                            (uint64_t{m.group & (kMaxGroups - 1)} << 7) | slot;
    return (memory << 32) | word;
  }
  uint32_t Record(uint64_t key, Access kind, const Accessor& a);
  static bool NumberedAlone(const MemoryId& m) {
    return m.slot <= kLastKeySlot;
  }
  // `m` for TGSM stands for all g# of m.group (TGSM-POISON).
  void RecordPoison(const MemoryId& m, const Accessor& a);

  // Of the access kinds in the mask `kinds`, those that a thread other than
  // `a.thread` makes to the word concurrently with `a` (one lookup for all).
  // (Inline, as the questions below: the judge asks at every access.)
  uint8_t ConcurrentKinds(const MemoryId& m, uint32_t word, uint8_t kinds,
                          const Accessor& a) const {
    return ConcurrentKinds(WordKey(m, word), kinds, a);
  }
  uint8_t ConcurrentKinds(uint64_t key, uint8_t kinds,
                          const Accessor& a) const {
    return Ask({key, a, kinds, 0});
  }
  // Whether any of `kinds` is concurrent, for a caller that needs no more:
  // a pass is run again only when an answer it used changes.
  bool ConcurrentAny(const MemoryId& m, uint32_t word, uint8_t kinds,
                     const Accessor& a) const {
    return ConcurrentAny(WordKey(m, word), kinds, a);
  }
  bool ConcurrentAny(uint64_t key, uint8_t kinds, const Accessor& a) const {
    return Ask({key, a, kinds, 0, true}) != 0;
  }
  bool Concurrent(const MemoryId& m, uint32_t word, Access kind,
                  const Accessor& a) const {
    return ConcurrentKinds(m, word, Bit(kind), a) != 0;
  }
  // Whether a thread other than `a.thread` poisons the memory concurrently.
  // A thread asks this at each access to a memory: while the log stays as
  // it is, the same question from the same place has the same answer, and
  // one copy among the remembered questions is enough for LearnFrom. That
  // repeat is answered here, inline (it is most of the calls).
  bool ConcurrentPoison(const MemoryId& m, const Accessor& a) const {
    return ConcurrentPoison(WordKey(m, 0), a);
  }
  // The same, for the memory of the word key `word_key` (any of its words).
  bool ConcurrentPoison(uint64_t word_key, const Accessor& a) const {
    const uint64_t key = PoisonKeyOf(word_key);
    const Query& last = last_poison_;
    if (last.kinds != 0 && last.key == key && last.a.thread == a.thread &&
        last.a.group == a.group && last.a.interval == a.interval) {
      return last.answer != 0;
    }
    return AskPoison(key, a);
  }
  // Whether any thread poisons the memory of the word key `word_key`, at
  // any time: a racing read's values (racing_read.h) do not follow poison.
  bool PoisonedEver(uint64_t word_key) const {
    return Ask({PoisonKeyOf(word_key), Accessor{0, 0, 0}, kPoisonedEver, 0}) !=
           0;
  }
  // Whether only `group` stores to or atomically modifies the word.
  bool OnlyGroupWrites(const MemoryId& m, uint32_t word, uint32_t group) const;

  // Every write the pass makes (word key, what), in its order: the next
  // pass's racing reads (racing_read.h) see the word's from it. Past
  // kMaxRecordedWrites the pass's record is given up.
  void RecordWrite(uint64_t key, const WriteRecord& w) {
    if (writes_.size() < kMaxRecordedWrites) {
      writes_.push_back({key, w});
    } else {
      writes_overflow_ = true;
    }
  }
  // The writes the last pass made to the word of `key`, in its order, into
  // `out`; false where that pass's record was given up. Asked of the known
  // log: LearnFrom checks that the next pass made the same ones.
  bool RecordedWrites(uint64_t key, std::vector<WriteRecord>& out) const;
  static constexpr size_t kMaxRecordedWrites = size_t{1} << 16;

  // Adds everything `other` holds; returns whether anything was new.
  bool Merge(const AccessLog& other);
  // Adds what the pass that asked this log's queries saw (`seen`), and says
  // whether the fixpoint is reached: no new access, or none that changes
  // the answer to any query asked since the last call. Either way the next
  // pass would decide everything as that pass did, so it need not run.
  // `seen` is consumed: into an empty log it moves, not copies.
  bool LearnFrom(AccessLog&& seen);
  // Room for `words` words, e.g. as many as the previous pass touched.
  void Reserve(size_t words) {
    words = std::max<size_t>(words, kInitialWords);
    index_.Reserve(words);
    words_.reserve(words);
  }
  size_t WordCount() const { return words_.size(); }
  // Empty again, as a new log, with the room it had (a judge that keeps its
  // logs from case to case allocates nothing here once it is there).
  void Clear() {
    asked_.clear();
    last_poison_ = {};
    index_.Clear();
    words_.clear();
    writes_.clear();
    writes_overflow_ = false;
    writes_indexed_ = false;
    writes_by_key_.clear();
    asked_keys_.clear();
    poisoned_ = false;
  }

  // A first pass's room: small cases fit, larger ones skip the first few
  // rehashes of their largest entries.
  static constexpr size_t kInitialWords = 32;
  // Groups a packed key can name (Execution refuses larger dispatches).
  static constexpr uint32_t kMaxGroups = 1u << 24;

 private:
  struct Two {  // the first two distinct values seen
    uint32_t a = UINT32_MAX, b = UINT32_MAX;
    bool Add(uint32_t v);    // true if it changed
    bool Add(const Two& o);  // both of o's; true if changed
    bool HasOtherThan(uint32_t v) const {
      return (a != UINT32_MAX && a != v) || (b != UINT32_MAX && b != v);
    }
  };
  static constexpr int kKinds = 3;
  // The distinct threads of one barrier interval of one group, per kind.
  struct Interval {
    uint32_t group, interval;
    std::array<Two, kKinds> threads;
  };
  // Everything known about one word: distinct groups per kind, and the
  // intervals (few: one per group and barrier passed) that touched it; two
  // in place, as a word that two groups share needs.
  struct Word {
    std::array<Two, kKinds> groups;
    absl::InlinedVector<Interval, 2> intervals;
    const Interval* Find(uint32_t group, uint32_t interval) const;
    Interval& FindOrAdd(uint32_t group, uint32_t interval);
  };
  static constexpr uint32_t kLastKeySlot = 126;
  static bool IsTgsm(uint64_t key) { return key >> 63; }
  // The queries asked of this log and their answers, for LearnFrom.
  struct Query {
    uint64_t key;
    Accessor a;     // a.group is the group of OnlyGroupWrites
    uint8_t kinds;  // asked (0: OnlyGroupWrites)
    uint8_t answer;
    bool any = false;  // ConcurrentAny: the answer is 0 or 1
  };
  uint8_t Answer(const Query& q) const;
  // ConcurrentPoison's question when it is not the last one asked.
  bool AskPoison(uint64_t key, const Accessor& a) const;
  // Keeps `q` for LearnFrom; Ask also answers it.
  Query& Remember(const Query& q) const;
  uint8_t Ask(const Query& q) const;
  // A small case asks about a hundred questions a pass: room for them at
  // the first, instead of growing one doubling at a time.
  static constexpr size_t kInitialQueries = 128;
  mutable std::vector<Query> asked_;
  // The last poison question remembered, and its answer: a thread asks the
  // same one at each access until its barrier interval ends. Forgotten
  // (kinds 0) whenever the log changes.
  mutable Query last_poison_{};
  // Word keys (WordKey()) numbered in the order first seen; words_ by number.
  DenseIndex index_;
  std::vector<Word> words_;
  // Whether words_ holds any poison: most cases have none, and then a
  // poison query needs no lookup.
  bool poisoned_ = false;
  // Recorded writes (RecordWrite): the last pass's alone.
  struct KeyedWrite {
    uint64_t key;
    WriteRecord write;
    bool operator==(const KeyedWrite&) const = default;
  };
  std::vector<KeyedWrite> writes_;
  bool writes_overflow_ = false;
  // The records' indices sorted by key, built at RecordedWrites' first
  // question since the last LearnFrom (writes_indexed_ says whether it is).
  mutable bool writes_indexed_ = false;
  mutable std::vector<uint32_t> writes_by_key_;
  // Whether two threads' stores to `w` race (kStoreRace).
  static bool StoresRace(const Word& w, bool tgsm);
  // The keys asked (up to kAskedKeys; past it, every key counts).
  static constexpr size_t kAskedKeys = 64;
  mutable absl::InlinedVector<uint64_t, 4> asked_keys_;
  // Whether `other` records the same writes as this log for every key a
  // racing read asked about.
  bool SameAskedWrites(const AccessLog& other) const;
  // Poison is kept as a store to a word no memory has.
  static constexpr uint32_t kPoisonWord = UINT32_MAX - 1;
  static MemoryId PoisonKey(const MemoryId& m) {
    return m.tgsm ? MemoryId{true, m.group, UINT32_MAX} : m;
  }
  // WordKey(PoisonKey(m), kPoisonWord) from any WordKey(m, word): a TGSM
  // poison's slot is 127 (all of the group's g#), a UAV's its own.
  static uint64_t PoisonKeyOf(uint64_t word_key) {
    const uint64_t tgsm_slot = IsTgsm(word_key) ? uint64_t{127} << 32 : 0;
    return (word_key & ~uint64_t{UINT32_MAX}) | tgsm_slot | kPoisonWord;
  }
};

}  // namespace atomfuzz::oracle

#endif  // ATOMFUZZ_ORACLE_ACCESS_LOG_H_
