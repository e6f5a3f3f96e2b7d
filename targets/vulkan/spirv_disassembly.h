// SPIR-V as text (spirv-tools' disassembler, linked as a library): what
// reports quote around a blamed atomic and Amber scripts carry.
#ifndef ATOMFUZZ_TARGETS_VULKAN_SPIRV_DISASSEMBLY_H_
#define ATOMFUZZ_TARGETS_VULKAN_SPIRV_DISASSEMBLY_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace atomfuzz::targets::vulkan {

// spirv-dis's text with friendly names (%uint, %main), no header comment
// and no colour; InvalidArgument with the disassembler's message where
// the words are not SPIR-V.
absl::StatusOr<std::string> DisassembleSpirv(absl::Span<const uint32_t> words);

}  // namespace atomfuzz::targets::vulkan

#endif  // ATOMFUZZ_TARGETS_VULKAN_SPIRV_DISASSEMBLY_H_
