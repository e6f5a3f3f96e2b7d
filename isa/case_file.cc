#include "isa/case_file.h"

#include <algorithm>
#include <utility>

namespace atomfuzz::isa {
namespace {

constexpr std::pair<Format, absl::string_view> kFormats[] = {
    {Format::kR32Uint, "r32_uint"},
    {Format::kR32Sint, "r32_sint"},
    {Format::kR32Float, "r32_float"},
};

}  // namespace

uint64_t ThreadCount(const Case& c) {
  // Saturates: three 32-bit extents times three group counts overflow 64 bits.
  constexpr uint64_t kCap = uint64_t{1} << 40;
  auto times = [](uint64_t n, uint64_t m) {
    return m != 0 && n > kCap / m ? kCap : n * m;
  };
  if (c.shader.pixel()) {
    // Every pixel of the framebuffer's quads, per sample and triangle: a
    // bound on the invocations, helpers included.
    const uint64_t w = (uint64_t{c.draw.width} + 1) & ~uint64_t{1};
    const uint64_t h = (uint64_t{c.draw.height} + 1) & ~uint64_t{1};
    return times(times(times(w, h), c.draw.samples), c.draw.triangles.size());
  }
  uint64_t n = 1;
  for (uint32_t g : c.groups) n = times(n, g);
  for (const Instruction& i : c.shader.instructions) {
    if (i.op != Op::kDclThreadGroup) continue;
    for (size_t k = 0; k < 3 && k < i.operands.size(); ++k) {
      n = times(n, i.operands[k].index);
    }
    break;
  }
  return n;
}

uint64_t Resource::WordCount() const {
  switch (kind) {
    case ResourceKind::kRaw: return words;
    case ResourceKind::kStructured:
      if (stride == 0 || stride % 4 != 0) return 0;
      return uint64_t{stride / 4} * elements;
    case ResourceKind::kTyped: return uint64_t{size[0]} * size[1] * size[2];
  }
  return 0;
}

bool ValueSet::Allows(uint32_t v) const {
  switch (kind) {
    case Kind::kAny: return true;
    case Kind::kExact: return !values.empty() && values[0] == v;
    case Kind::kOneOf:
      return std::binary_search(values.begin(), values.end(), v);
  }
  return false;
}

const Resource* Case::FindResource(uint32_t slot) const {
  for (const Resource& r : resources) {
    if (r.slot == slot) return &r;
  }
  return nullptr;
}

absl::string_view ResourceKindName(ResourceKind k) {
  switch (k) {
    case ResourceKind::kRaw: return "raw";
    case ResourceKind::kStructured: return "structured";
    case ResourceKind::kTyped: return "typed";
  }
  return "?";
}

absl::string_view FormatName(Format f) {
  for (const auto& [fmt, name] : kFormats) {
    if (fmt == f) return name;
  }
  return "?";
}

std::optional<Format> FormatFromName(absl::string_view name) {
  for (const auto& [fmt, spelling] : kFormats) {
    if (spelling == name) return fmt;
  }
  return std::nullopt;
}

}  // namespace atomfuzz::isa
