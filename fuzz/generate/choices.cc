#include "fuzz/generate/choices.h"

namespace atomfuzz::fuzz {

uint32_t Choices::InRange(uint32_t lo, uint32_t hi) {
  if (hi <= lo) return lo;
  return lo + static_cast<uint32_t>(Below(uint64_t{hi} - lo + 1));
}

size_t Choices::Weighted(absl::Span<const uint32_t> weights) {
  uint64_t total = 0;
  for (uint32_t w : weights) total += w;
  if (total == 0) return 0;
  uint64_t draw = Below(total);
  for (size_t i = 0; i < weights.size(); ++i) {
    if (draw < weights[i]) return i;
    draw -= weights[i];
  }
  return weights.size() - 1;  // unreachable: draw < total
}

uint64_t ByteChoices::Take(int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes && pos_ < bytes_.size(); ++i) {
    v |= uint64_t{bytes_[pos_++]} << (8 * i);
  }
  return v;
}

uint64_t ByteChoices::Below(uint64_t n) {
  if (n <= 1) return 0;
  int bytes = 1;
  while (bytes < 8 && (n - 1) >> (8 * bytes) != 0) ++bytes;
  return Take(bytes) % n;
}

uint32_t ByteChoices::Word() { return static_cast<uint32_t>(Take(4)); }

uint64_t CaseSeed(uint64_t campaign_seed, uint64_t index) {
  // One SplitMix64 step over a mix of both: distinct, well spread, frozen.
  isa::Prng prng(campaign_seed ^ (index * 0xD1B54A32D192ED03ull));
  return prng.Next64();
}

}  // namespace atomfuzz::fuzz
