#include "isa/operand.h"

namespace atomfuzz::isa {

Operand TempSwizzle(uint32_t n, std::array<uint8_t, 4> swizzle) {
  Operand o;
  o.file = RegFile::kTemp;
  o.index = n;
  o.selection = Selection::kSwizzle;
  o.swizzle = swizzle;
  return o;
}

Operand Imm(uint32_t v) {
  Operand o;
  o.file = RegFile::kImmediate;
  o.value_count = 1;
  o.values = {v, 0, 0, 0};
  return o;
}

Operand Imm4(uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
  Operand o;
  o.file = RegFile::kImmediate;
  o.value_count = 4;
  o.values = {a, b, c, d};
  return o;
}

Operand Uav(uint32_t n) {
  Operand o;
  o.file = RegFile::kUav;
  o.index = n;
  return o;
}

Operand Tgsm(uint32_t n) {
  Operand o;
  o.file = RegFile::kTgsm;
  o.index = n;
  return o;
}

Operand Number(uint32_t n) {
  Operand o;
  o.file = RegFile::kNumber;
  o.index = n;
  return o;
}

absl::string_view RegFileName(RegFile f) {
  switch (f) {
    case RegFile::kTemp: return "r";
    case RegFile::kInput: return "v";
    case RegFile::kInputCoverageMask: return "vCoverage";
    case RegFile::kIndexableTemp: return "x";
    case RegFile::kImmediate: return "l";
    case RegFile::kNull: return "null";
    case RegFile::kUav: return "u";
    case RegFile::kTgsm: return "g";
    case RegFile::kThreadID: return "vThreadID";
    case RegFile::kThreadGroupID: return "vThreadGroupID";
    case RegFile::kThreadIDInGroup: return "vThreadIDInGroup";
    case RegFile::kThreadIDInGroupFlattened: return "vThreadIDInGroupFlattened";
    case RegFile::kNumber: return "";
  }
  return "?";
}

}  // namespace atomfuzz::isa
