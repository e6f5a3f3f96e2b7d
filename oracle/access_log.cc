#include "oracle/access_log.h"

#include <algorithm>

#include "absl/base/attributes.h"

namespace atomfuzz::oracle {

bool AccessLog::Two::Add(uint32_t v) {
  if (a == v || b == v) return false;
  if (a == UINT32_MAX) {
    a = v;
    return true;
  }
  if (b == UINT32_MAX) {
    b = v;
    return true;
  }
  return false;  // two distinct values are all any query needs
}

bool AccessLog::Two::Add(const Two& o) {
  bool changed = false;
  if (o.a != UINT32_MAX) changed |= Add(o.a);
  if (o.b != UINT32_MAX) changed |= Add(o.b);
  return changed;
}

const AccessLog::Interval* AccessLog::Word::Find(uint32_t group,
                                                 uint32_t interval) const {
  for (const Interval& i : intervals) {
    if (i.group == group && i.interval == interval) return &i;
  }
  return nullptr;
}

AccessLog::Interval& AccessLog::Word::FindOrAdd(uint32_t group,
                                                uint32_t interval) {
  for (Interval& i : intervals) {
    if (i.group == group && i.interval == interval) return i;
  }
  return intervals.emplace_back(Interval{group, interval, {}});
}

uint32_t AccessLog::Record(uint64_t key, Access kind, const Accessor& a) {
  last_poison_.kinds = 0;  // answers may change
  const auto [n, added] = index_.Add(key);
  if (added) words_.emplace_back();
  Word& w = words_[n];
  const size_t k = static_cast<size_t>(kind);
  w.groups[k].Add(a.group);
  w.FindOrAdd(a.group, a.interval).threads[k].Add(a.thread);
  return n;
}

void AccessLog::RecordPoison(const MemoryId& m, const Accessor& a) {
  poisoned_ = true;
  Record(PoisonKey(m), kPoisonWord, Access::kStore, a);
}

AccessLog::Query& AccessLog::Remember(const Query& q) const {
  if (asked_.capacity() == 0) asked_.reserve(kInitialQueries);
  return asked_.emplace_back(q);
}

bool AccessLog::AskPoison(uint64_t key, const Accessor& a) const {
  Query& q = Remember({key, a, Bit(Access::kStore), 0});
  // Without poison, the answer Answer() would give, without the lookup.
  if (poisoned_) q.answer = Answer(q);
  last_poison_ = q;
  return q.answer != 0;
}

bool AccessLog::OnlyGroupWrites(const MemoryId& m, uint32_t word,
                                uint32_t group) const {
  return Ask({WordKey(m, word), Accessor{0, group, 0}, 0, 0}) != 0;
}

// Inlined into Ask and LearnFrom, its two callers: one call per question.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline uint8_t AccessLog::Answer(
    const Query& q) const {
  // A first pass asks an empty log: the answers of a word never seen,
  // without hashing the key.
  if (words_.empty()) return q.kinds == 0 ? 1 : 0;
  const uint32_t n = index_.Find(q.key);
  if (q.kinds == kPoisonedEver) return n != DenseIndex::kAbsent;
  if (q.kinds == 0) {  // OnlyGroupWrites
    if (n == DenseIndex::kAbsent) return 1;
    for (Access kind : {Access::kStore, Access::kAtomic}) {
      if (words_[n].groups[static_cast<size_t>(kind)].HasOtherThan(q.a.group))
        return 0;
    }
    return 1;
  }
  if (n == DenseIndex::kAbsent) return 0;
  const Word& w = words_[n];
  const Interval* same = w.Find(q.a.group, q.a.interval);
  uint8_t answer =
      (q.kinds & kStoreRace) && StoresRace(w, IsTgsm(q.key)) ? kStoreRace : 0;
  for (size_t k = 0; k < kKinds; ++k) {
    if (!(q.kinds & (1u << k))) continue;
    // Other groups race on u# (no inter-group sync, spec 2.2); within the
    // group, other threads of the same barrier interval.
    if ((!IsTgsm(q.key) && w.groups[k].HasOtherThan(q.a.group)) ||
        (same != nullptr && same->threads[k].HasOtherThan(q.a.thread))) {
      answer |= static_cast<uint8_t>(1u << k);
    }
  }
  return q.any ? answer != 0 : answer;
}

uint8_t AccessLog::Ask(const Query& q) const {
  return Remember(q).answer = Answer(q);
}

bool AccessLog::RecordedWrites(uint64_t key,
                               std::vector<WriteRecord>& out) const {
  out.clear();
  if (asked_keys_.size() <= kAskedKeys &&
      std::find(asked_keys_.begin(), asked_keys_.end(), key) ==
          asked_keys_.end()) {
    asked_keys_.push_back(key);
  }
  if (writes_overflow_) return false;
  if (!writes_indexed_) {
    writes_indexed_ = true;
    writes_by_key_.resize(writes_.size());
    for (uint32_t i = 0; i < writes_.size(); ++i) writes_by_key_[i] = i;
    // By key, then in the pass's order (the index): a plain sort, no buffer.
    std::sort(writes_by_key_.begin(), writes_by_key_.end(),
              [&](uint32_t a, uint32_t b) {
                return writes_[a].key != writes_[b].key
                           ? writes_[a].key < writes_[b].key
                           : a < b;
              });
  }
  auto it = std::lower_bound(
      writes_by_key_.begin(), writes_by_key_.end(), key,
      [&](uint32_t i, uint64_t k) { return writes_[i].key < k; });
  for (; it != writes_by_key_.end() && writes_[*it].key == key; ++it) {
    out.push_back(writes_[*it].write);
  }
  return true;
}

bool AccessLog::StoresRace(const Word& w, bool tgsm) {
  constexpr size_t kStore = static_cast<size_t>(Access::kStore);
  // Two groups' stores race on u# (no sync between groups); within a
  // group, two threads' stores in one barrier interval.
  if (!tgsm && w.groups[kStore].b != UINT32_MAX) return true;
  for (const Interval& i : w.intervals) {
    if (i.threads[kStore].b != UINT32_MAX) return true;
  }
  return false;
}

bool AccessLog::SameAskedWrites(const AccessLog& other) const {
  if (other.writes_overflow_ != writes_overflow_) return false;
  if (asked_keys_.size() > kAskedKeys) return other.writes_ == writes_;
  // Each key's writes in order, both logs scanned once per key (few keys).
  for (uint64_t key : asked_keys_) {
    size_t i = 0, j = 0;
    for (;;) {
      while (i < writes_.size() && writes_[i].key != key) ++i;
      while (j < other.writes_.size() && other.writes_[j].key != key) ++j;
      const bool mine = i < writes_.size(), theirs = j < other.writes_.size();
      if (mine != theirs) return false;
      if (!mine) break;
      if (!(writes_[i].write == other.writes_[j].write)) return false;
      ++i;
      ++j;
    }
  }
  return true;
}

bool AccessLog::LearnFrom(AccessLog&& seen) {
  bool learned;
  if (words_.empty()) {  // the first pass: everything seen is new
    learned = !seen.words_.empty();
    // Swapped: `seen` keeps this log's room (empty), for its next pass.
    std::swap(index_, seen.index_);
    std::swap(words_, seen.words_);
    poisoned_ = seen.poisoned_;
  } else {
    learned = Merge(seen);
  }
  // A pass's writes are what the next pass's racing reads see: the last
  // pass's alone. Where racing reads saw them, other writes are news.
  bool changed = !asked_keys_.empty() && !SameAskedWrites(seen);
  std::swap(writes_, seen.writes_);
  writes_overflow_ = seen.writes_overflow_;
  writes_indexed_ = false;
  writes_by_key_.clear();
  asked_keys_.clear();
  seen.writes_.clear();
  seen.writes_overflow_ = false;
  // Cleared, not freed: the next pass asks about as many questions.
  for (size_t i = 0; learned && !changed && i < asked_.size(); ++i) {
    changed = Answer(asked_[i]) != asked_[i].answer;
  }
  asked_.clear();
  last_poison_.kinds = 0;
  return changed;
}

bool AccessLog::Merge(const AccessLog& other) {
  last_poison_.kinds = 0;  // answers may change
  bool changed = false;
  poisoned_ = poisoned_ || other.poisoned_;
  for (uint32_t t = 0; t < other.words_.size(); ++t) {
    const Word& theirs = other.words_[t];
    const auto [n, added] = index_.Add(other.index_.key(t));
    if (added) words_.emplace_back();
    Word& mine = words_[n];
    for (size_t k = 0; k < kKinds; ++k)
      changed |= mine.groups[k].Add(theirs.groups[k]);
    for (const Interval& i : theirs.intervals) {
      Interval& m = mine.FindOrAdd(i.group, i.interval);
      for (size_t k = 0; k < kKinds; ++k)
        changed |= m.threads[k].Add(i.threads[k]);
    }
  }
  return changed;
}

}  // namespace atomfuzz::oracle
