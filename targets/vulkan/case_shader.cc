#include "targets/vulkan/case_shader.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "isa/dxbc.h"
#include "targets/vulkan/spirv_validation.h"
#include "targets/vulkan/vkd3d_compiler.h"
#include "targets/vulkan/vkd3d_workarounds.h"

namespace atomfuzz::targets::vulkan {

std::vector<UavBinding> BindingsOf(const isa::Case& c) {
  std::vector<UavBinding> out;
  const auto& code = c.shader.instructions;
  for (const isa::Instruction& in : code) {
    if (in.op != isa::Op::kDclUavRaw && in.op != isa::Op::kDclUavStructured &&
        in.op != isa::Op::kDclUavTyped) {
      continue;
    }
    UavBinding b;
    b.slot = in.operands[0].index;
    b.buffer = in.op != isa::Op::kDclUavTyped || in.dim == isa::Dim::kBuffer;
    const isa::Resource* r = c.FindResource(b.slot);
    b.counter = r != nullptr && r->counter.has_value();
    for (const isa::Instruction& use : code) {
      if (use.info().family == isa::Family::kCounter &&
          use.operands[1].index == b.slot) {
        b.counter = true;
      }
    }
    out.push_back(b);
  }
  return out;
}

CaseShader CompileCase(const isa::Case& c, BufferUavMode mode,
                       const Vkd3dLibrary& vkd3d) {
  CaseShader out;
  absl::StatusOr<std::vector<uint8_t>> dxbc = isa::EncodeDxbc(c.shader);
  if (!dxbc.ok()) {
    out.refused = isa::Outcome::Ended(
        isa::RunStatus::kRejected,
        absl::StrCat("DXBC encoder: ", dxbc.status().message()));
    return out;
  }
  out.dxbc = *std::move(dxbc);
  out.bindings = BindingsOf(c);
  SpirvModule spirv = CompileDxbcToSpirv(out.dxbc, out.bindings, mode, vkd3d);
  if (!spirv.compiler.ok()) {
    // --vkd3d=wine's helper died or hung on this program: like a crash of
    // the linked vkd3d, which takes the fork child down, an outcome.
    const absl::Status& s = spirv.compiler;
    const std::string why = absl::StrCat("vkd3d-shader: ", s.message());
    if (absl::IsUnavailable(s)) {
      out.refused = isa::Outcome::Ended(isa::RunStatus::kCrashed, why);
    } else if (absl::IsDeadlineExceeded(s)) {
      out.refused = isa::Outcome::Ended(isa::RunStatus::kTimedOut, why);
    } else {
      out.compiler = absl::Status(s.code(), why);
    }
    return out;
  }
  out.vkd3d_messages = spirv.messages;
  // Written up in docs/findings.md; repaired so that SSBO mode still runs
  // every case with two buffer UAVs.
  if (spirv.ok && mode == BufferUavMode::kSsbo)
    out.array_strides_dropped = DropRepeatedArrayStride(spirv.words);
  if (!spirv.ok) {
    out.refused =
        isa::Outcome::Ended(isa::RunStatus::kRejected,
                            absl::StrCat("vkd3d-shader: ", spirv.messages));
  } else if (std::optional<std::string> invalid = ValidateSpirv(spirv.words)) {
    out.refused = isa::Outcome::Ended(isa::RunStatus::kInvalidCode,
                                      absl::StrCat("spirv-val: ", *invalid));
  }
  out.spirv = std::move(spirv.words);
  return out;
}

}  // namespace atomfuzz::targets::vulkan
