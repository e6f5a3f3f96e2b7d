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
  const WordKey w{m, word, kind};
  if (!m.tgsm) {
    auto g = groups_.find(w);
    if (g != groups_.end() && g->second.HasOtherThan(a.group)) return true;
  }
  auto t = threads_.find(IntervalKey{w, a.group, a.interval});
  return t != threads_.end() && t->second.HasOtherThan(a.thread);
}

bool AccessLog::OnlyGroupWrites(const MemoryId& m, uint32_t word,
                                uint32_t group) const {
  for (Access kind : {Access::kStore, Access::kAtomic}) {
    auto g = groups_.find(WordKey{m, word, kind});
    if (g != groups_.end() && g->second.HasOtherThan(group)) return false;
  }
  return true;
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
