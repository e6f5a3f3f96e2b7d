// One operand of an instruction, as fxc's disassembly shows it (spec 3.1, 4.4).
#ifndef ATOMFUZZ_ISA_OPERAND_H_
#define ATOMFUZZ_ISA_OPERAND_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>

#include "absl/strings/string_view.h"

namespace atomfuzz::isa {

// Register files; the values are the TPF operand types (spec 4.4).
enum class RegFile : uint8_t {
  kTemp = 0,                       // r#
  kInput = 1,                      // v# (pixel inputs: dcl_input_ps_*)
  kIndexableTemp = 3,              // x#[]
  kImmediate = 4,                  // l(...)
  kNull = 13,                      // null
  kUav = 30,                       // u#
  kTgsm = 31,                      // g#
  kThreadID = 32,                  // vThreadID
  kThreadGroupID = 33,             // vThreadGroupID
  kThreadIDInGroup = 34,           // vThreadIDInGroup
  kInputCoverageMask = 35,         // vCoverage (pixel stage)
  kThreadIDInGroupFlattened = 36,  // vThreadIDInGroupFlattened
  kNumber = 255,                   // a bare number in a declaration (no token)
};

// Whether the file is one of the four compute system values (spec 1.9).
constexpr bool IsSystemValue(RegFile f) {
  return f == RegFile::kThreadID || f == RegFile::kThreadGroupID ||
         f == RegFile::kThreadIDInGroup ||
         f == RegFile::kThreadIDInGroupFlattened;
}
// Whether the file is one of the pixel stage's inputs: v# (which a
// dcl_input_ps_* names position, sampleIndex or primitive_id) or vCoverage.
constexpr bool IsPixelInput(RegFile f) {
  return f == RegFile::kInput || f == RegFile::kInputCoverageMask;
}
// Whether a shader reads the file as an input of its stage.
constexpr bool IsShaderInput(RegFile f) {
  return IsSystemValue(f) || IsPixelInput(f);
}
// Whether operands of this file carry a register number (r3, u1, x0, ...).
constexpr bool HasIndex(RegFile f) {
  return f == RegFile::kTemp || f == RegFile::kIndexableTemp ||
         f == RegFile::kUav || f == RegFile::kTgsm || f == RegFile::kInput;
}

// Component selection (spec 4.4 bits [3:2], plus "none" for 0-component).
enum class Selection : uint8_t { kNone, kMask, kSwizzle, kSelect1 };

// A register read as a dynamic index: x0[r1.y + 2] (spec 4.4 relative index).
struct RelativeIndex {
  uint32_t temp = 0;      // r#
  uint8_t component = 0;  // 0..3 = x..w
  bool operator==(const RelativeIndex&) const = default;
};

// Laid out small (44 bytes, no padding gaps): instructions keep their
// operands inline (program.h), so every byte here is copied with each case.
struct Operand {
  RegFile file = RegFile::kNull;
  Selection selection = Selection::kNone;
  uint8_t mask = 0;                               // bit 0 = x ... bit 3 = w
  uint8_t value_count = 0;                        // immediates: 1 or 4
  std::array<uint8_t, 4> swizzle = {0, 1, 2, 3};  // kSwizzle; [0] for kSelect1
  uint32_t index = 0;  // register number, or the number itself for kNumber
  // x#[N] in dcl_indexableTemp, and the immediate part of x#[r1.x + N].
  uint32_t offset = 0;
  std::optional<RelativeIndex> relative;  // only with a bracketed index
  std::array<uint32_t, 4> values = {0, 0, 0, 0};

  // The leading fields, file through offset, are 16 bytes without padding:
  // compared as one block (SameRun compares every operand of every mutant).
  bool operator==(const Operand& o) const {
    return std::memcmp(this, &o, kPlainPrefix) == 0 && relative == o.relative &&
           values == o.values;
  }
  static constexpr size_t kPlainPrefix = 16;

  // Number of components this source reads after selection (1 or 4).
  int SourceWidth() const {
    if (file == RegFile::kImmediate) return value_count;
    return selection == Selection::kSelect1 ? 1 : 4;
  }
  // The register component that source lane `lane` reads (0..3).
  uint8_t Component(int lane) const {
    if (selection == Selection::kSelect1) return swizzle[0];
    return swizzle[static_cast<size_t>(lane & 3)];
  }
};
static_assert(sizeof(Operand) == 44, "keep Operand packed: see above");
static_assert(offsetof(Operand, relative) == Operand::kPlainPrefix &&
                  sizeof(RegFile) + sizeof(Selection) + 2 +
                          sizeof(std::array<uint8_t, 4>) +
                          2 * sizeof(uint32_t) ==
                      Operand::kPlainPrefix,
              "file..offset must stay one padding-free block");

// Convenience constructors (tests, generator, reducer).
// Inline: the generator builds hundreds a case.
inline Operand Temp(uint32_t n, Selection sel, uint8_t mask_or_component) {
  Operand o;
  o.file = RegFile::kTemp;
  o.index = n;
  o.selection = sel;
  if (sel == Selection::kMask) {
    o.mask = mask_or_component;
  } else if (sel == Selection::kSelect1) {
    o.swizzle = {mask_or_component, 0, 0, 0};
  }
  return o;
}
Operand TempSwizzle(uint32_t n, std::array<uint8_t, 4> swizzle);
Operand Imm(uint32_t v);
Operand Imm4(uint32_t a, uint32_t b, uint32_t c, uint32_t d);
Operand Uav(uint32_t n);
Operand Tgsm(uint32_t n);
Operand Number(uint32_t n);

// fxc's spelling of a file (r, x, u, g, l, null, vThreadID, ...).
absl::string_view RegFileName(RegFile f);

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_OPERAND_H_
