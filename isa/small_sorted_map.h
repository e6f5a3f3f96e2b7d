// A map for the validator's few declarations per register file (a shader
// declares a handful of u#, g# and x#): a sorted vector kept inline, so that
// gathering them costs no allocation and a lookup a short scan. Past
// kSpillAt entries (hostile input only) it moves to a std::map, so that
// inserting stays O(log n). Visits in key order, as std::map does, so that
// diagnostics keep their order.
#ifndef ATOMFUZZ_ISA_SMALL_SORTED_MAP_H_
#define ATOMFUZZ_ISA_SMALL_SORTED_MAP_H_

#include <algorithm>
#include <cstddef>
#include <map>
#include <utility>

#include "absl/container/inlined_vector.h"

namespace atomfuzz::isa {

template <typename K, typename V>
class SmallSortedMap {
 public:
  static constexpr size_t kSpillAt = 64;

  // Adds key -> value unless `key` is present; whether it was added.
  bool emplace(const K& key, const V& value) {
    if (!spill_.empty()) return spill_.emplace(key, value).second;
    auto it = LowerBound(key);
    if (it != small_.end() && it->first == key) return false;
    small_.insert(it, Entry(key, value));
    if (small_.size() >= kSpillAt) Spill();
    return true;
  }
  // The value of `key`, added as V{} if absent.
  V& operator[](const K& key) {
    if (!spill_.empty()) return spill_[key];
    auto it = LowerBound(key);
    if (it == small_.end() || it->first != key) {
      if (small_.size() + 1 >= kSpillAt) {
        Spill();
        return spill_[key];
      }
      it = small_.insert(it, Entry(key, V{}));
    }
    return it->second;
  }
  // The value of `key`, or nullptr.
  const V* find(const K& key) const {
    if (!spill_.empty()) {
      auto it = spill_.find(key);
      return it == spill_.end() ? nullptr : &it->second;
    }
    for (const Entry& e : small_) {
      if (e.first == key) return &e.second;
    }
    return nullptr;
  }
  bool contains(const K& key) const { return find(key) != nullptr; }

  // f(key, value) for every entry, in key order.
  template <typename F>
  void ForEach(F f) const {
    if (!spill_.empty()) {
      for (const auto& [k, v] : spill_) f(k, v);
    } else {
      for (const Entry& e : small_) f(e.first, e.second);
    }
  }

 private:
  using Entry = std::pair<K, V>;

  typename absl::InlinedVector<Entry, 8>::iterator LowerBound(const K& key) {
    return std::lower_bound(
        small_.begin(), small_.end(), key,
        [](const Entry& e, const K& k) { return e.first < k; });
  }
  void Spill() {
    spill_.insert(small_.begin(), small_.end());
    small_.clear();
  }

  absl::InlinedVector<Entry, 8> small_;  // sorted by key
  std::map<K, V> spill_;                 // all entries, once spilled
};

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_SMALL_SORTED_MAP_H_
