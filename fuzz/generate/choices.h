// Where the generator's and mutators' decisions come from. One interface, two
// sources (style guide 7.2): SeededChoices draws from our frozen PRNG, so a
// seed printed in a report rebuilds the same case on any machine;
// ByteChoices reads fuzzer-supplied bytes, like FuzzTest's FuzzingBitGen, so
// libFuzzer and AFL++ mutate the decisions themselves. Once the bytes run out
// every draw is 0, so generators must make 0 the smallest, simplest choice
// (stop adding, the first weight), which also makes input end well-defined.
#ifndef ATOMFUZZ_FUZZ_GENERATE_CHOICES_H_
#define ATOMFUZZ_FUZZ_GENERATE_CHOICES_H_

#include <cstddef>
#include <cstdint>

#include "absl/types/span.h"
#include "isa/prng.h"

namespace atomfuzz::fuzz {

class Choices {
 public:
  virtual ~Choices() = default;
  // Uniform (SeededChoices) in [0, n); n == 0 is treated as 1.
  virtual uint64_t Below(uint64_t n) = 0;
  // Any 32-bit value.
  virtual uint32_t Word() = 0;

  // True with probability per_mille / 1000; false when bytes ran out.
  bool PerMille(uint32_t per_mille) { return Below(1000) < per_mille; }
  // In [lo, hi], inclusive; lo when hi <= lo.
  uint32_t InRange(uint32_t lo, uint32_t hi);
  // An index drawn in proportion to the weights; the first non-zero weight
  // when the draw is 0; 0 when every weight is 0.
  size_t Weighted(absl::Span<const uint32_t> weights);
};

class SeededChoices final : public Choices {
 public:
  explicit SeededChoices(uint64_t seed) : prng_(seed) {}
  uint64_t Below(uint64_t n) override { return prng_.Below(n == 0 ? 1 : n); }
  uint32_t Word() override { return prng_.Next32(); }

 private:
  isa::Prng prng_;
};

// Reads little-endian draws from the front of the bytes: one byte for n up
// to 256, two up to 65536, and so on; modulo n (a fuzzer does not need
// uniformity, it needs every value reachable and small changes to stay small).
class ByteChoices final : public Choices {
 public:
  explicit ByteChoices(absl::Span<const uint8_t> bytes) : bytes_(bytes) {}
  uint64_t Below(uint64_t n) override;
  uint32_t Word() override;
  size_t consumed() const { return pos_; }
  bool exhausted() const { return pos_ >= bytes_.size(); }

 private:
  uint64_t Take(int bytes);
  absl::Span<const uint8_t> bytes_;
  size_t pos_ = 0;
};

// A seed for case `index` of a campaign seeded with `campaign_seed`, so that
// each case can be rebuilt alone (`atomfuzz gen --seed=...`).
uint64_t CaseSeed(uint64_t campaign_seed, uint64_t index);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_GENERATE_CHOICES_H_
