// DXBC -> SPIR-V through the vkd3d-shader a Vkd3dLibrary names, with the
// binding interface that docs/vulkan-target.md describes: every UAV u# at
// set 0 binding #, its hidden counter at binding kCounterBindingBase + #.
#ifndef ATOMFUZZ_TARGETS_VULKAN_VKD3D_COMPILER_H_
#define ATOMFUZZ_TARGETS_VULKAN_VKD3D_COMPILER_H_

#include <cstdint>

#include "absl/types/span.h"
#include "targets/vulkan/spirv_compiler.h"
#include "targets/vulkan/vkd3d_library.h"

namespace atomfuzz::targets::vulkan {

SpirvModule CompileDxbcToSpirv(absl::Span<const uint8_t> dxbc,
                               absl::Span<const UavBinding> uavs,
                               BufferUavMode mode,
                               const Vkd3dLibrary& lib = LinkedVkd3d(),
                               DiscardMode discard = DiscardMode::kKill);

}  // namespace atomfuzz::targets::vulkan

#endif  // ATOMFUZZ_TARGETS_VULKAN_VKD3D_COMPILER_H_
