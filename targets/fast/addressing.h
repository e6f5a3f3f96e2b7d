// Where an address lands, the fast executor's own implementation of spec
// 1.2/1.3 (bounds in 64 bits), plus the injected wrong variants. Each is a
// type so handlers are instantiated per variant: no branch on injections in
// the hot loop.
#ifndef ATOMFUZZ_TARGETS_FAST_ADDRESSING_H_
#define ATOMFUZZ_TARGETS_FAST_ADDRESSING_H_

#include <cstdint>

#include "targets/fast/compiled.h"

namespace atomfuzz::targets::fast {

struct Where {
  bool hit;       // in bounds: the word is accessed
  uint32_t word;  // valid when hit
};

// Misaligned and past-the-stride accesses poison the memory (spec 1.3): any
// contents are then allowed, and this executor leaves memory alone, as for
// out-of-bounds ones.
struct RawAddress {
  static Where At(const Memory& m, const uint32_t* a) {
    if (a[0] % 4 != 0 || uint64_t{a[0]} + 4 > m.words * 4) return {false, 0};
    return {true, a[0] / 4};
  }
};

struct StructuredAddress {
  static Where At(const Memory& m, const uint32_t* a) {
    if (a[1] % 4 != 0 || uint64_t{a[1]} + 4 > m.stride || a[0] >= m.elements)
      return {false, 0};
    return {true,
            static_cast<uint32_t>(uint64_t{a[0]} * (m.stride / 4) + a[1] / 4)};
  }
};

struct TypedAddress {
  static Where At(const Memory& m, const uint32_t* a) {
    uint64_t word = 0, scale = 1;
    for (int i = 0; i < m.width; ++i) {
      if (a[i] >= m.size[static_cast<size_t>(i)]) return {false, 0};
      word += a[i] * scale;
      scale *= m.size[static_cast<size_t>(i)];
    }
    return {true, static_cast<uint32_t>(word)};
  }
};

// Injected: the byte offset is dropped (translator computing index*stride
// only).
struct StructuredNoOffset {
  static Where At(const Memory& m, const uint32_t* a) {
    if (a[0] >= m.elements) return {false, 0};
    return {true, static_cast<uint32_t>(uint64_t{a[0]} * (m.stride / 4))};
  }
};

// Injected (E-17): vkd3d/DXVK compute index*(stride/4) + offset/4 in 32 bits
// and only check the word against the buffer.
struct StructuredWrap32 {
  static Where At(const Memory& m, const uint32_t* a) {
    const uint32_t word = a[0] * (m.stride / 4) + a[1] / 4;
    if (word >= m.words) return {false, 0};
    return {true, word};
  }
};

// Injected: a Texture2D(Array) address loses its y coordinate.
struct TypedNoY {
  static Where At(const Memory& m, const uint32_t* a) {
    const uint32_t b[3] = {a[0], 0, a[2]};
    return TypedAddress::At(
        m, m.dim == isa::Dim::kTexture2D || m.dim == isa::Dim::kTexture2DArray
               ? b
               : a);
  }
};

// Injected: out-of-bounds words wrap around instead of being skipped.
template <class Base>
struct WrapOutOfBounds {
  static Where At(const Memory& m, const uint32_t* a) {
    const Where w = Base::At(m, a);
    if (w.hit || m.words == 0) return w;
    uint64_t linear = 0;
    switch (m.kind) {
      case Memory::Kind::kRaw: linear = a[0] / 4; break;
      case Memory::Kind::kStructured:
        linear = uint64_t{a[0]} * (m.stride / 4) + a[1] / 4;
        break;
      case Memory::Kind::kTyped: linear = a[0]; break;
    }
    return {true, static_cast<uint32_t>(linear % m.words)};
  }
};

}  // namespace atomfuzz::targets::fast

#endif  // ATOMFUZZ_TARGETS_FAST_ADDRESSING_H_
