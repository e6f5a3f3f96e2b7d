#include "oracle/access_log.h"

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

void AccessLog::Record(const MemoryId& m, uint32_t word, Access kind,
                       const Accessor& a) {
  const WordKey w{m, word, kind};
  groups_[w].Add(a.group);
  threads_[IntervalKey{w, a.group, a.interval}].Add(a.thread);
}

void AccessLog::RecordPoison(const MemoryId& m, const Accessor& a) {
  Record(PoisonKey(m), kPoisonWord, Access::kStore, a);
}

bool AccessLog::ConcurrentPoison(const MemoryId& m, const Accessor& a) const {
  return Concurrent(PoisonKey(m), kPoisonWord, Access::kStore, a);
}

bool AccessLog::Concurrent(const MemoryId& m, uint32_t word, Access kind,
                           const Accessor& a) const {
  const Query q{false, m, word, kind, a, false};
  asked_.push_back(q);
  return asked_.back().answer = Answer(q);
}

bool AccessLog::OnlyGroupWrites(const MemoryId& m, uint32_t word,
                                uint32_t group) const {
  const Query q{true, m, word, Access::kStore, Accessor{0, group, 0}, false};
  asked_.push_back(q);
  return asked_.back().answer = Answer(q);
}

bool AccessLog::Answer(const Query& q) const {
  const MemoryId& m = q.m;
  const uint32_t word = q.word;
  const Accessor& a = q.a;
  if (q.only_group) {
    for (Access kind : {Access::kStore, Access::kAtomic}) {
      auto g = groups_.find(WordKey{m, word, kind});
      if (g != groups_.end() && g->second.HasOtherThan(a.group)) return false;
    }
    return true;
  }
  const WordKey w{m, word, q.kind};
  if (!m.tgsm) {
    auto g = groups_.find(w);
    if (g != groups_.end() && g->second.HasOtherThan(a.group)) return true;
  }
  auto t = threads_.find(IntervalKey{w, a.group, a.interval});
  return t != threads_.end() && t->second.HasOtherThan(a.thread);
}


bool AccessLog::LearnFrom(const AccessLog& seen) {
  const bool learned = Merge(seen);
  std::vector<Query> asked;
  asked.swap(asked_);
  bool same = true;
  for (const Query& q : asked) {
    if (Answer(q) != q.answer) {
      same = false;
      break;
    }
  }
  return learned && !same;
}

bool AccessLog::Merge(const AccessLog& other) {
  bool changed = false;
  for (const auto& [k, two] : other.groups_) {
    Two& mine = groups_[k];
    if (two.a != UINT32_MAX) changed |= mine.Add(two.a);
    if (two.b != UINT32_MAX) changed |= mine.Add(two.b);
  }
  for (const auto& [k, two] : other.threads_) {
    Two& mine = threads_[k];
    if (two.a != UINT32_MAX) changed |= mine.Add(two.a);
    if (two.b != UINT32_MAX) changed |= mine.Add(two.b);
  }
  return changed;
}

}  // namespace atomfuzz::oracle
