// The vertex shader of every pixel case's draw: it passes its one input, a
// vec4 clip-space position the host computed (vk_draw.cc), to Position.
#ifndef ATOMFUZZ_TARGETS_VULKAN_VERTEX_SHADER_H_
#define ATOMFUZZ_TARGETS_VULKAN_VERTEX_SHADER_H_

#include <cstdint>

#include "absl/types/span.h"

namespace atomfuzz::targets::vulkan {

// SPIR-V 1.0 words, valid for Vulkan 1.0 (tests/targets check it).
absl::Span<const uint32_t> PassThroughVertexShader();

}  // namespace atomfuzz::targets::vulkan

#endif  // ATOMFUZZ_TARGETS_VULKAN_VERTEX_SHADER_H_
