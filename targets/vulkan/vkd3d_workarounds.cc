#include "targets/vulkan/vkd3d_workarounds.h"

#include <cstddef>
#include <set>
#include <utility>

namespace atomfuzz::targets::vulkan {
namespace {

// SPIR-V 1.0 section 2.3 (header) and 3.32 (OpDecorate), 3.20 (ArrayStride).
constexpr std::size_t kHeaderWords = 5;
constexpr uint32_t kOpDecorate = 71;
constexpr uint32_t kDecorationArrayStride = 6;

}  // namespace

int DropRepeatedArrayStride(std::vector<uint32_t>& spirv) {
  if (spirv.size() < kHeaderWords) return 0;
  std::vector<uint32_t> out(spirv.begin(), spirv.begin() + kHeaderWords);
  out.reserve(spirv.size());
  std::set<std::pair<uint32_t, uint32_t>> seen;  // (type id, stride)
  int dropped = 0;
  for (std::size_t at = kHeaderWords; at < spirv.size();) {
    const uint32_t length = spirv[at] >> 16;
    if (length == 0 || length > spirv.size() - at) return 0;
    const bool stride = (spirv[at] & 0xffff) == kOpDecorate && length == 4 &&
                        spirv[at + 2] == kDecorationArrayStride;
    if (stride && !seen.insert({spirv[at + 1], spirv[at + 3]}).second) {
      ++dropped;
    } else {
      out.insert(out.end(), spirv.begin() + static_cast<ptrdiff_t>(at),
                 spirv.begin() + static_cast<ptrdiff_t>(at + length));
    }
    at += length;
  }
  spirv = std::move(out);
  return dropped;
}

}  // namespace atomfuzz::targets::vulkan
