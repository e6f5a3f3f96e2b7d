// What compiling DXBC to SPIR-V takes and gives, and the one call every
// vkd3d-shader serves it by: in this process (the linked library or one
// opened with dlopen) or in the Windows helper under Wine (--vkd3d=wine).
#ifndef ATOMFUZZ_TARGETS_VULKAN_SPIRV_COMPILER_H_
#define ATOMFUZZ_TARGETS_VULKAN_SPIRV_COMPILER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"

namespace atomfuzz::targets::vulkan {

// How vkd3d lowers buffer UAVs: storage texel buffers (its default) or
// storage buffers (SSBOs). Typed textures are storage images either way.
enum class BufferUavMode : uint8_t { kTexel, kSsbo };

// How vkd3d lowers discard_*: OpKill, its default, which ends the
// invocation, or (with its SPV_EXT_demote_to_helper_invocation target
// extension) OpDemoteToHelperInvocationEXT, which lets it run on as a
// helper, as D3D's discard does (docs/pixel-stage.md P.3).
enum class DiscardMode : uint8_t { kKill, kDemote };

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
  std::string said;      // what it printed meanwhile (FIXME lines), if known
  // Not OK when the compiler failed rather than refused the program: its
  // Wine helper died (Unavailable), hung (DeadlineExceeded) or would not
  // start (FailedPrecondition).
  absl::Status compiler = absl::OkStatus();
};

// The bindings are every UAV u# at set 0 binding #, its hidden counter at
// binding kCounterBindingBase + # (docs/vulkan-target.md).
class SpirvCompiler {
 public:
  virtual ~SpirvCompiler() = default;
  virtual SpirvModule Compile(absl::Span<const uint8_t> dxbc,
                              absl::Span<const UavBinding> uavs,
                              BufferUavMode mode, DiscardMode discard) = 0;
};

}  // namespace atomfuzz::targets::vulkan

#endif  // ATOMFUZZ_TARGETS_VULKAN_SPIRV_COMPILER_H_
