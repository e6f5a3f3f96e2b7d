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

#include <cstdint>
#include <vector>

#include "absl/container/flat_hash_map.h"

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
};

class AccessLog {
 public:
  void Record(const MemoryId& m, uint32_t word, Access kind, const Accessor& a);
  // `m` for TGSM stands for all g# of m.group (TGSM-POISON).
  void RecordPoison(const MemoryId& m, const Accessor& a);

  // Whether a thread other than `a.thread` makes an access of `kind` to the
  // word concurrently with `a`.
  bool Concurrent(const MemoryId& m, uint32_t word, Access kind,
                  const Accessor& a) const;
  // Whether a thread other than `a.thread` poisons the memory concurrently.
  bool ConcurrentPoison(const MemoryId& m, const Accessor& a) const;
  // Whether only `group` stores to or atomically modifies the word.
  bool OnlyGroupWrites(const MemoryId& m, uint32_t word, uint32_t group) const;

  // Adds everything `other` holds; returns whether anything was new.
  bool Merge(const AccessLog& other);
  // Adds what the pass that asked this log's queries saw (`seen`), and says
  // whether the fixpoint is reached: no new access, or none that changes
  // the answer to any query asked since the last call. Either way the next
  // pass would decide everything as that pass did, so it need not run.
  bool LearnFrom(const AccessLog& seen);

 private:
  struct Two {  // the first two distinct values seen
    uint32_t a = UINT32_MAX, b = UINT32_MAX;
    bool Add(uint32_t v);                    // true if it changed
    bool HasOtherThan(uint32_t v) const { return (a != UINT32_MAX && a != v) || (b != UINT32_MAX && b != v); }
  };
  struct WordKey {
    MemoryId m;
    uint32_t word;
    Access kind;
    bool operator==(const WordKey&) const = default;
    template <typename H>
    friend H AbslHashValue(H h, const WordKey& k) {
      return H::combine(std::move(h), k.m, k.word, k.kind);
    }
  };
  struct IntervalKey {
    WordKey w;
    uint32_t group, interval;
    bool operator==(const IntervalKey&) const = default;
    template <typename H>
    friend H AbslHashValue(H h, const IntervalKey& k) {
      return H::combine(std::move(h), k.w, k.group, k.interval);
    }
  };
  // The queries asked of this log and their answers, for LearnFrom.
  struct Query {
    bool only_group;  // OnlyGroupWrites, else Concurrent
    MemoryId m;
    uint32_t word;
    Access kind;
    Accessor a;  // a.group is the group of OnlyGroupWrites
    bool answer;
  };
  bool Answer(const Query& q) const;
  mutable std::vector<Query> asked_;
  absl::flat_hash_map<WordKey, Two> groups_;         // distinct groups
  absl::flat_hash_map<IntervalKey, Two> threads_;    // distinct threads
  // Poison is kept as a store to a word no memory has.
  static constexpr uint32_t kPoisonWord = UINT32_MAX - 1;
  static MemoryId PoisonKey(const MemoryId& m) {
    return m.tgsm ? MemoryId{true, m.group, UINT32_MAX} : m;
  }
};

}  // namespace atomfuzz::oracle

#endif  // ATOMFUZZ_ORACLE_ACCESS_LOG_H_
