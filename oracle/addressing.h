// Where an address lands in a UAV view or a g#, by the spec's rules (1.2, 1.3,
// 1.7), with bounds arithmetic in 64 bits (E-12): 0xFFFFFFFC + 4 is out of
// bounds, not 0.
#ifndef ATOMFUZZ_ORACLE_ADDRESSING_H_
#define ATOMFUZZ_ORACLE_ADDRESSING_H_

#include <array>
#include <cstdint>

#include "isa/outcome.h"
#include "isa/program.h"

namespace atomfuzz::oracle {

// The shape of one addressable memory.
struct Layout {
  enum class Kind : uint8_t { kRaw, kStructured, kTyped };
  Kind kind = Kind::kRaw;
  bool tgsm = false;
  uint64_t words = 0;                        // total words
  uint32_t stride = 0;                       // structured: bytes per structure
  uint32_t elements = 0;                     // structured: structures
  isa::Dim dim = isa::Dim::kBuffer;          // typed
  std::array<uint32_t, 3> size = {1, 1, 1};  // typed extents

  // Address components an atomic takes (spec 1.2 table). Inline: asked at
  // every memory step.
  int AddressWidth() const {
    switch (kind) {
      case Kind::kRaw: return 1;
      case Kind::kStructured: return 2;
      case Kind::kTyped: return isa::TypedAddressWidth(dim);
    }
    return 1;
  }
};

struct Resolved {
  isa::AddressClass cls = isa::AddressClass::kInBounds;
  uint32_t word = 0;  // valid for kInBounds
};

// An atomic's address (`a` holds the components after the swizzle).
// Most destructive outcome first when several apply (spec 1.3 notes, 7.1).
Resolved ResolveAtomic(const Layout& l, const std::array<uint32_t, 3>& a);

// A raw/structured load or store of `count` consecutive words starting at
// byte `offset` (inside structure `index` for structured memory).
struct WordRange {
  bool misaligned = false;       // offset % 4 != 0 (spec 1.2)
  bool offset_overflow = false;  // structured: the words pass the stride
  bool index_oob = false;        // structured: index >= elements
  uint64_t first_word = 0;       // of the linear memory, when aligned
  // For each of the `count` words: inside the memory?
  std::array<bool, 4> in_bounds = {false, false, false, false};
};
WordRange ResolveRange(const Layout& l, uint32_t index, uint32_t offset,
                       int count);

// A typed load/store: the texel, or nullopt-like kSkip when out of bounds.
Resolved ResolveTyped(const Layout& l, const std::array<uint32_t, 3>& a);

}  // namespace atomfuzz::oracle

#endif  // ATOMFUZZ_ORACLE_ADDRESSING_H_
