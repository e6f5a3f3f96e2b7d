// Immediate value -> its register slot, while one case compiles. A case
// has tens of immediates, looked up once per operand lane: an open-
// addressing table whose entries carry the generation (case) that wrote
// them, so clearing it for the next case is one increment, and a lookup
// is a multiply and a compare or two (an absl::flat_hash_map, hashed per
// lane and regrown each case, was most of the 15% of the compile this
// table and the direct path for l(...) saved).
#ifndef ATOMFUZZ_TARGETS_FAST_CONSTANT_SLOTS_H_
#define ATOMFUZZ_TARGETS_FAST_CONSTANT_SLOTS_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace atomfuzz::targets::fast {

class ConstantSlots {
 public:
  // Forgets every value.
  void Clear() {
    size_ = 0;
    if (++generation_ == 0) {  // wrapped: old stamps could match again
      for (Entry& e : table_) e.generation = 0;
      generation_ = 1;
    }
  }

  // The slot of `value`, and whether it was added now with `new_slot`.
  std::pair<uint32_t, bool> FindOrAdd(uint32_t value, uint32_t new_slot) {
    if (size_ >= limit_) Grow();
    for (uint32_t i = Home(value);; i = (i + 1) & mask_) {
      Entry& e = table_[i];
      if (e.generation != generation_) {
        e = {value, new_slot, generation_};
        ++size_;
        return {new_slot, true};
      }
      if (e.value == value) return {e.slot, false};
    }
  }

 private:
  struct Entry {
    uint32_t value = 0, slot = 0, generation = 0;
  };

  // Fibonacci hashing: the top bits of value * 2^32/phi.
  uint32_t Home(uint32_t value) const {
    return (value * 0x9E3779B1u) >> shift_;
  }

  // Doubles the table (at least 64 entries), keeping this case's entries.
  void Grow() {
    std::vector<Entry> old;
    old.swap(table_);
    const size_t size = old.empty() ? 64 : old.size() * 2;
    table_.assign(size, Entry{});
    mask_ = static_cast<uint32_t>(size - 1);
    limit_ = static_cast<uint32_t>(size / 2);
    shift_ = 32;
    for (size_t s = size; s > 1; s >>= 1) --shift_;
    const uint32_t generation = generation_;
    generation_ = 1;
    size_ = 0;
    for (const Entry& e : old) {
      if (e.generation == generation) FindOrAdd(e.value, e.slot);
    }
  }

  std::vector<Entry> table_;  // a power of two entries, at most half full
  uint32_t mask_ = 0;         // table_.size() - 1
  uint32_t limit_ = 0;        // entries before it grows: half the table
  uint32_t shift_ = 32;       // 32 - log2(table_.size())
  uint32_t generation_ = 1;
  uint32_t size_ = 0;  // entries of this generation
};

}  // namespace atomfuzz::targets::fast

#endif  // ATOMFUZZ_TARGETS_FAST_CONSTANT_SLOTS_H_
