// C reproducers: a header comment (the case, its finding, how to build and
// run), then templates/repro_types.h, the case's data block, its shader's
// words, templates/repro_check.c and the API part (templates/README.md).
#ifndef ATOMFUZZ_FUZZ_EXPORT_C_REPRODUCER_H_
#define ATOMFUZZ_FUZZ_EXPORT_C_REPRODUCER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "fuzz/export/reproducer_data.h"
#include "isa/case_file.h"

namespace atomfuzz::fuzz {

enum class CApi : uint8_t { kVulkan, kD3d12, kD3d11 };

struct CShader {
  std::vector<uint32_t> spirv;  // kVulkan
  bool ssbo = false;            // kVulkan: buffer UAVs as storage buffers
  std::vector<uint8_t> dxbc;    // kD3d12, kD3d11
  std::string notes;            // put in the header (what vkd3d said, ...)
};

// "dir/x.c" -> "x" ("repro" for an empty name): what a reproducer saved
// as `path` builds into, and the default name of a case's export.
std::string FileStem(absl::string_view path);

// The commands that build and run a reproducer saved as `file`, for
// `target` (wine-vk runs Wine's Vulkan renderer).
std::string CBuildCommand(CApi api, absl::string_view file);
std::string CRunCommand(CApi api, absl::string_view file,
                        absl::string_view target);

std::string CReproducer(CApi api, const isa::Case& c, const ReproData& data,
                        const CShader& shader, absl::string_view file,
                        absl::string_view target);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_EXPORT_C_REPRODUCER_H_
