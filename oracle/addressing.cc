#include "oracle/addressing.h"

#include <algorithm>

namespace atomfuzz::oracle {

using isa::AddressClass;

Resolved ResolveTyped(const Layout& l, const std::array<uint32_t, 3>& a) {
  const int n = isa::TypedAddressWidth(l.dim);
  uint64_t word = 0, scale = 1;
  for (int i = 0; i < n; ++i) {
    const size_t k = static_cast<size_t>(i);
    // Spec 1.3, E-18, E-19: any coordinate >= its extent skips, including
    // coordinates >= 2^31 that a signed translation would see as negative.
    if (a[k] >= l.size[k]) return {AddressClass::kSkip, 0};
    word += uint64_t{a[k]} * scale;
    scale *= l.size[k];
  }
  return {AddressClass::kInBounds, static_cast<uint32_t>(word)};
}

Resolved ResolveAtomic(const Layout& l, const std::array<uint32_t, 3>& a) {
  const AddressClass poison =
      l.tgsm ? AddressClass::kTgsmPoison : AddressClass::kUavPoison;
  // Spec 1.3: every g# out-of-bounds access poisons all TGSM of the group.
  const AddressClass oob =
      l.tgsm ? AddressClass::kTgsmPoison : AddressClass::kSkip;
  switch (l.kind) {
    case Layout::Kind::kRaw: {
      if (a[0] % 4 != 0) return {poison, 0};  // spec 1.2 alignment, E-13
      if (uint64_t{a[0]} + 4 > l.words * 4) return {oob, 0};  // E-12
      return {AddressClass::kInBounds, a[0] / 4};
    }
    case Layout::Kind::kStructured: {
      const uint32_t index = a[0], offset = a[1];
      // Spec 1.3: the offset causing the overflow poisons even when the
      // linear address would land inside the next structure (E-14, E-16).
      if (offset % 4 != 0 || uint64_t{offset} + 4 > l.stride)
        return {poison, 0};
      if (index >= l.elements) return {oob, 0};  // E-14, E-17 (no 32-bit wrap)
      const uint64_t word = uint64_t{index} * (l.stride / 4) + offset / 4;
      return {AddressClass::kInBounds, static_cast<uint32_t>(word)};
    }
    case Layout::Kind::kTyped: return ResolveTyped(l, a);
  }
  return {AddressClass::kSkip, 0};
}

WordRange ResolveRange(const Layout& l, uint32_t index, uint32_t offset,
                       int count) {
  WordRange r;
  r.misaligned = offset % 4 != 0;
  if (r.misaligned) return r;
  uint64_t base = offset;
  uint64_t limit = l.words * 4;  // bytes of the whole memory
  if (l.kind == Layout::Kind::kStructured) {
    r.offset_overflow =
        uint64_t{offset} + 4ull * static_cast<uint64_t>(count) > l.stride;
    r.index_oob = index >= l.elements;
    base = uint64_t{index} * l.stride + offset;
    if (r.index_oob) limit = 0;
  }
  r.first_word = base / 4;
  // Word c is inside when base + 4c + 4 <= limit: the first `fit` words
  // are. A fixed 4 iterations: a loop bounded by `count` too was vectorized,
  // at three times the instructions.
  const uint64_t fit = limit >= base ? (limit - base) / 4 : 0;
  const uint64_t words = static_cast<uint64_t>(std::max(count, 0));
  for (uint64_t c = 0; c < 4; ++c) r.in_bounds[c] = c < words && c < fit;
  return r;
}

}  // namespace atomfuzz::oracle
