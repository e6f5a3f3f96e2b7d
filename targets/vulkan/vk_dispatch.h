// One dispatch of a compiled SPIR-V compute shader on the process's Vulkan
// device: bind every declared UAV (texel buffer, storage buffer or storage
// image) and its counter, upload the initial words, dispatch the case's
// groups, read everything back.
#ifndef ATOMFUZZ_TARGETS_VULKAN_VK_DISPATCH_H_
#define ATOMFUZZ_TARGETS_VULKAN_VK_DISPATCH_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "isa/case_file.h"
#include "isa/outcome.h"
#include "targets/vulkan/vk_context.h"
#include "targets/vulkan/vkd3d_compiler.h"

namespace atomfuzz::targets::vulkan {

// Why a case cannot run on this device, or "" when it can: groups or
// descriptors past the device's limits, an empty UAV (Vulkan has no
// zero-sized view), more memory than kMaxDispatchWords; for a ps_5_0 case
// also what DrawRefusal (vk_draw.h) says.
inline constexpr uint64_t kMaxDispatchWords = uint64_t{1} << 24;  // 64 MiB
std::string DeviceRefusal(const VkContext& vk, const isa::Case& c,
                          absl::Span<const UavBinding> bindings,
                          BufferUavMode mode);

// UAV and counter descriptors one shader may bind in `mode`, whatever their
// kinds (texel buffers count as storage images in Vulkan's limits, SSBOs
// as storage buffers): what a batch of cases may use (lavapipe: 64 in
// texel mode, 32 in SSBO mode).
uint32_t DescriptorLimit(const VkContext& vk, BufferUavMode mode);

// The final state of every resource of `c` (sorted by slot, all defined).
// `bindings` lists the UAVs the shader declares; the others are untouched.
// Errors are the device's (allocation, device lost, a 60 s timeout).
absl::StatusOr<std::vector<isa::UavState>> Dispatch(
    VkContext& vk, const isa::Case& c, absl::Span<const uint32_t> spirv,
    absl::Span<const UavBinding> bindings, BufferUavMode mode);

}  // namespace atomfuzz::targets::vulkan

#endif  // ATOMFUZZ_TARGETS_VULKAN_VK_DISPATCH_H_
