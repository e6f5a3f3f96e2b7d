// The Vulkan target: case -> trace instrumentation -> DXBC (isa::EncodeDxbc)
// -> libvkd3d-shader -> SPIR-V (checked by spirv-tools) -> a compute
// dispatch, or for a ps_5_0 case a draw (vk_draw.h), on lavapipe or the
// device --vk-device names. Names:
//   vulkan         buffer UAVs as storage texel buffers (vkd3d's default),
//                  discard as OpKill (vkd3d's default)
//   vulkan-ssbo    buffer UAVs as storage buffers
//   vulkan-demote  discard as OpDemoteToHelperInvocationEXT (texel buffers)
#ifndef ATOMFUZZ_TARGETS_VULKAN_VULKAN_TARGET_H_
#define ATOMFUZZ_TARGETS_VULKAN_VULKAN_TARGET_H_

#include <memory>

#include "absl/status/statusor.h"
#include "targets/case_batch.h"
#include "targets/target.h"
#include "targets/vulkan/vkd3d_compiler.h"
#include "targets/vulkan/vkd3d_library.h"

namespace atomfuzz::targets::vulkan {

// lavapipe stops every loop after this many iterations (all loops of a
// SIMD vector together), so a case that may reach it is not comparable.
inline constexpr uint32_t kLavapipeLoopCap = 65535;

// What RunBatch puts in one shader on a device that binds `descriptors`
// UAV and counter descriptors per shader. lavapipe's LLVM JIT at a new
// pipeline's first dispatch is the cost, and it grows with the memory
// instructions, faster than linearly: about 10 ms for a shader of one
// store, 25 ms with 16 atomics and 75 ms with 64 (35 ms and 130 ms with the
// trace log). Batching saves the fixed part only, so a batch holds at most
// 32 memory instructions (16, 64 or 128 measured no better); and since
// every lavapipe compute shader is a coroutine whose frame grows with its
// barriers, a case with sync_*_t runs alone (bench/vulkan_bench.cc).
BatchLimits VulkanBatchLimits(uint32_t descriptors);

// The flag (TargetOptions::flags) naming the device: a substring of its name.
inline constexpr char kDeviceFlag[] = "vk_device";
// The flag naming the libvkd3d-shader.so to compile with ("": the linked).
inline constexpr char kVkd3dFlag[] = "vkd3d";

// "vulkan: vkd3d-shader 1.2 (linked)", what findings name as the executor.
std::string VulkanDescription(const std::string& name,
                              const Vkd3dLibrary& vkd3d);

// The device opens on the first Run (FailedPrecondition there when there is
// none, or when `discard` is kDemote and the device cannot demote).
// InvalidArgument for flags this target does not take (--inject).
absl::StatusOr<std::unique_ptr<Target>> CreateVulkanTarget(
    const TargetOptions& options, BufferUavMode mode,
    DiscardMode discard = DiscardMode::kKill);

}  // namespace atomfuzz::targets::vulkan

#endif  // ATOMFUZZ_TARGETS_VULKAN_VULKAN_TARGET_H_
