// Dense numbers 0, 1, 2, ... for 64-bit keys, in the order they were first
// added, so that what is kept per key can live in a plain vector. An open-
// addressing table with linear probing, at most half full. The access log
// looks a word up at nearly every memory access of every pass: abseil's
// map cost about a hundred instructions per insertion there (and rehashing
// moved whole 100-byte entries), this one about half that.
#ifndef ATOMFUZZ_ORACLE_INTERNAL_DENSE_INDEX_H_
#define ATOMFUZZ_ORACLE_INTERNAL_DENSE_INDEX_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/base/attributes.h"

namespace atomfuzz::oracle {

class DenseIndex {
 public:
  static constexpr uint32_t kAbsent = UINT32_MAX;

  // The key's number, or kAbsent.
  uint32_t Find(uint64_t key) const {
    if (slots_.empty()) return kAbsent;
    for (size_t s = Home(key);; s = (s + 1) & mask_) {
      if (slots_[s].number == kAbsent || slots_[s].key == key)
        return slots_[s].number;
    }
  }
  // The key's number, and whether it was new (then it is the last: size()-1).
  // Inlined: the access log adds a word at nearly every memory access.
  ABSL_ATTRIBUTE_ALWAYS_INLINE std::pair<uint32_t, bool> Add(uint64_t key) {
    if (2 * (keys_.size() + 1) > slots_.size()) Rehash(2 * (keys_.size() + 1));
    size_t s = Home(key);
    for (; slots_[s].number != kAbsent; s = (s + 1) & mask_) {
      if (slots_[s].key == key) return {slots_[s].number, false};
    }
    slots_[s] = {key, static_cast<uint32_t>(keys_.size())};
    keys_.push_back(key);
    return {slots_[s].number, true};
  }
  // Room for `n` keys without rehashing.
  void Reserve(size_t n) {
    keys_.reserve(n);
    if (2 * n > slots_.size()) Rehash(2 * n);
  }

  // Forgets every key, keeping the room. Only the slots in use are emptied
  // (a table kept from a large case would cost more to wipe than a small
  // case to fill): first each key's slot is found, and noted in place of
  // the key, then those slots are emptied (emptying one before finding the
  // next could break the next's probe chain).
  void Clear() {
    for (uint32_t n = 0; n < keys_.size(); ++n) {
      size_t s = Home(keys_[n]);
      while (slots_[s].number != n) s = (s + 1) & mask_;
      keys_[n] = s;
    }
    for (uint64_t s : keys_) slots_[s] = Slot{};
    keys_.clear();
  }

  size_t size() const { return keys_.size(); }
  bool empty() const { return keys_.empty(); }
  uint64_t key(uint32_t number) const { return keys_[number]; }

 private:
  struct Slot {
    uint64_t key = 0;
    uint32_t number = kAbsent;  // kAbsent: empty
  };
  // Fibonacci hashing: the product's top bits depend on every key bit.
  size_t Home(uint64_t key) const {
    return (key * 0x9E3779B97F4A7C15ull) >> shift_;
  }
  // To at least `slots` slots (a power of two), every key put back.
  void Rehash(size_t slots);

  std::vector<Slot> slots_;
  std::vector<uint64_t> keys_;  // by number
  size_t mask_ = 0;
  int shift_ = 64;
};

}  // namespace atomfuzz::oracle

#endif  // ATOMFUZZ_ORACLE_INTERNAL_DENSE_INDEX_H_
