// Our own frozen random engine and distributions (SplitMix64). The standard
// library's distributions differ between implementations and abseil's BitGen
// between builds; a seed in a bug report must rebuild the same schedule or
// case on any machine, so nothing here may ever change its output (a golden
// test pins the first values).
#ifndef ATOMFUZZ_ISA_PRNG_H_
#define ATOMFUZZ_ISA_PRNG_H_

#include <cstdint>

namespace atomfuzz::isa {

class Prng {
 public:
  explicit Prng(uint64_t seed) : state_(seed) {}

  uint64_t Next64() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint32_t Next32() { return static_cast<uint32_t>(Next64() >> 32); }

  // Uniform in [0, n), n > 0; rejection sampling, so exactly uniform.
  uint64_t Below(uint64_t n) {
    const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do {
      x = Next64();
    } while (x >= limit);
    return x % n;
  }
  // True with probability num/den.
  bool Chance(uint64_t num, uint64_t den) { return Below(den) < num; }

 private:
  uint64_t state_;
};

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_PRNG_H_
