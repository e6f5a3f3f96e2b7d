// DXBC -> SPIR-V through libvkd3d-shader 1.2, with the binding interface that
// docs/vulkan-target.md describes: every UAV u# at set 0 binding #,
// its hidden counter at binding kCounterBindingBase + #.
#ifndef ATOMFUZZ_TARGETS_VULKAN_VKD3D_COMPILER_H_
#define ATOMFUZZ_TARGETS_VULKAN_VKD3D_COMPILER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "targets/vulkan/vkd3d_library.h"

namespace atomfuzz::targets::vulkan {

// How vkd3d lowers buffer UAVs: storage texel buffers (its default) or
// storage buffers (SSBOs). Typed textures are storage images either way.
enum class BufferUavMode : uint8_t { kTexel, kSsbo };

inline constexpr uint32_t kCounterBindingBase = 64;

struct UavBinding {
  uint32_t slot = 0;
  bool buffer = true;    // buffer UAV (raw, structured, typed buffer)
  bool counter = false;  // also bind its hidden counter
};

struct SpirvModule {
  bool ok = false;
  std::vector<uint32_t> words;
  std::string messages;  // vkd3d's diagnostics (errors when !ok)
};

SpirvModule CompileDxbcToSpirv(absl::Span<const uint8_t> dxbc,
                               absl::Span<const UavBinding> uavs,
                               BufferUavMode mode,
                               const Vkd3dLibrary& lib = LinkedVkd3d());

}  // namespace atomfuzz::targets::vulkan

#endif  // ATOMFUZZ_TARGETS_VULKAN_VKD3D_COMPILER_H_
