// A case's shader as the vulkan targets hand it to the driver: DXBC from
// isa::EncodeDxbc, SPIR-V from vkd3d-shader with the bindings of
// docs/vulkan-target.md, repaired where vkd3d is known to need it, and
// checked by spirv-val. The target runs it; `atomfuzz export` writes it
// into reproducers, so both see the same words.
#ifndef ATOMFUZZ_TARGETS_VULKAN_CASE_SHADER_H_
#define ATOMFUZZ_TARGETS_VULKAN_CASE_SHADER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "isa/case_file.h"
#include "isa/outcome.h"
#include "targets/vulkan/spirv_compiler.h"
#include "targets/vulkan/vkd3d_library.h"

namespace atomfuzz::targets::vulkan {

// Every UAV the shader declares, with its counter where the case gives one
// or the shader uses alloc/consume on it (vkd3d then expects the binding).
std::vector<UavBinding> BindingsOf(const isa::Case& c);

struct CaseShader {
  // Not OK when the compiler could not be asked (its Wine helper would not
  // start); then nothing else is set.
  absl::Status compiler = absl::OkStatus();
  // Why the shader cannot run, as the outcome of a run would say it:
  // rejected (the encoder, vkd3d), crashed or timed out (vkd3d's Wine
  // helper), invalid-code (spirv-val); nullopt when it can.
  std::optional<isa::Outcome> refused;
  std::vector<uint8_t> dxbc;
  std::vector<uint32_t> spirv;  // also when spirv-val refused it
  std::vector<UavBinding> bindings;
  std::string vkd3d_messages;     // vkd3d's log, warnings included
  int array_strides_dropped = 0;  // SSBO mode's repair (docs/findings.md)
};

CaseShader CompileCase(const isa::Case& c, BufferUavMode mode,
                       const Vkd3dLibrary& vkd3d,
                       DiscardMode discard = DiscardMode::kKill);

// CompileCase in a child process, for a caller that must outlive a
// vkd3d-shader that crashes on the case (the exporter): the child's death
// is a kCrashed refusal naming the signal. The linked vkd3d-shader only.
CaseShader CompileCaseInChild(const isa::Case& c, BufferUavMode mode,
                              DiscardMode discard = DiscardMode::kKill);

}  // namespace atomfuzz::targets::vulkan

#endif  // ATOMFUZZ_TARGETS_VULKAN_CASE_SHADER_H_
