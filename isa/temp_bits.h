// A fixed-size set of bits, one per r#.c component, for the uniformity pass
// (isa/control_flow_check.cc). Packed 64 to a word and kept inline up to 32
// temps: the pass copies and joins these at every block, and a
// std::vector<bool> did that one heap block and one bit at a time.
#ifndef ATOMFUZZ_ISA_TEMP_BITS_H_
#define ATOMFUZZ_ISA_TEMP_BITS_H_

#include <cstddef>
#include <cstdint>

#include "absl/container/inlined_vector.h"

namespace atomfuzz::isa {

class TempBits {
 public:
  TempBits() = default;
  // `count` bits, all `value`. Bits past `count` stay clear, so that joins
  // see only real components.
  TempBits(size_t count, bool value)
      : words_((count + 63) / 64, value ? ~uint64_t{0} : 0) {
    if (value && count % 64 != 0)
      words_.back() = (uint64_t{1} << (count % 64)) - 1;
  }

  bool Get(size_t k) const { return (words_[k / 64] >> (k % 64)) & 1; }
  void Set(size_t k, bool value) {
    const uint64_t bit = uint64_t{1} << (k % 64);
    if (value) {
      words_[k / 64] |= bit;
    } else {
      words_[k / 64] &= ~bit;
    }
  }
  // Sets every bit set in `o` (of the same size); returns whether any was
  // clear here.
  bool Union(const TempBits& o) {
    bool changed = false;
    for (size_t w = 0; w < words_.size(); ++w) {
      changed |= (o.words_[w] & ~words_[w]) != 0;
      words_[w] |= o.words_[w];
    }
    return changed;
  }
  // Whether every bit set here is set in `o` (of the same size).
  bool SubsetOf(const TempBits& o) const {
    for (size_t w = 0; w < words_.size(); ++w) {
      if ((words_[w] & ~o.words_[w]) != 0) return false;
    }
    return true;
  }

 private:
  absl::InlinedVector<uint64_t, 2> words_;
};

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_TEMP_BITS_H_
