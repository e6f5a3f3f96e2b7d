// One draw of a ps_5_0 case on the process's Vulkan device: the case's
// triangles through a pass-through vertex shader into a render pass with no
// attachments (framebuffer W x H, the draw's samples), the compiled SPIR-V
// fragment shader writing only UAVs, bound as a dispatch binds them
// (vk_uav_set.h). Per-sample shading is the shader's: vkd3d's SampleId
// forces it.
//
// Coverage is exact: vertices are on a 1/256 pixel grid, the viewport is a
// 512 x 512 square at (-128, -128) so that the host's clip coordinates and
// the device's viewport transform are exact powers of two apart and every
// vertex (within 64 pixels of the framebuffer, isa/case_file.h) lies inside
// it (nothing is clipped), and the scissor is the framebuffer. The validator
// keeps every sample 1/64 pixel from every edge (isa/raster.h), so the fill
// rule and the rasterizer's snapping never decide what is covered.
#ifndef ATOMFUZZ_TARGETS_VULKAN_VK_DRAW_H_
#define ATOMFUZZ_TARGETS_VULKAN_VK_DRAW_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "isa/case_file.h"
#include "isa/outcome.h"
#include "targets/vulkan/spirv_compiler.h"
#include "targets/vulkan/vk_context.h"

namespace atomfuzz::targets::vulkan {

// Why the device cannot draw `c`, or "": no graphics queue, no UAVs in
// fragment shaders, a sample count a framebuffer without attachments does
// not take or whose positions are not the standard ones, or a feature the
// shader's inputs need (SampleId: sampleRateShading; PrimitiveId, read
// where the draw has two or more triangles: geometryShader).
std::string DrawRefusal(const VkContext& vk, const isa::Case& c);

// The clip-space position (x, y, 0, 1) of a vertex in 1/256 pixel under
// the draw's viewport: exact in float.
std::array<float, 4> ClipPosition(const std::array<int32_t, 2>& vertex);

// The final state of every resource of `c`, as Dispatch gives it.
absl::StatusOr<std::vector<isa::UavState>> Draw(
    VkContext& vk, const isa::Case& c, absl::Span<const uint32_t> spirv,
    absl::Span<const UavBinding> bindings, BufferUavMode mode);

}  // namespace atomfuzz::targets::vulkan

#endif  // ATOMFUZZ_TARGETS_VULKAN_VK_DRAW_H_
