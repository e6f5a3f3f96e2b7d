// SPIR-V validation with spirv-tools (linked as a library): what vkd3d emits
// must be valid for Vulkan 1.0 before any driver sees it.
#ifndef ATOMFUZZ_TARGETS_VULKAN_SPIRV_VALIDATION_H_
#define ATOMFUZZ_TARGETS_VULKAN_SPIRV_VALIDATION_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/types/span.h"

namespace atomfuzz::targets::vulkan {

// The validator's message when `words` is invalid; nullopt when valid.
std::optional<std::string> ValidateSpirv(absl::Span<const uint32_t> words);

}  // namespace atomfuzz::targets::vulkan

#endif  // ATOMFUZZ_TARGETS_VULKAN_SPIRV_VALIDATION_H_
