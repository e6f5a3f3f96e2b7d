#include "targets/vulkan/vulkan_target.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "isa/dxbc.h"
#include "isa/validator.h"
#include "targets/trace_instrumentation.h"
#include "targets/vulkan/spirv_validation.h"
#include "targets/vulkan/vk_context.h"
#include "targets/vulkan/vk_dispatch.h"
#include "targets/vulkan/vkd3d_workarounds.h"

namespace atomfuzz::targets::vulkan {
namespace {

isa::Outcome Refused(isa::RunStatus status, std::string message) {
  isa::Outcome o;
  o.status = status;
  o.message = std::move(message);
  return o;
}

// Every UAV the shader declares, with its counter where the case gives one
// or the shader uses alloc/consume on it.
std::vector<UavBinding> Bindings(const isa::Case& c) {
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
      if (use.info().family == isa::Family::kCounter && use.operands[1].index == b.slot) {
        b.counter = true;
      }
    }
    out.push_back(b);
  }
  return out;
}

class VulkanTarget : public Target {
 public:
  VulkanTarget(const TargetOptions& options, BufferUavMode mode)
      : options_(options), mode_(mode) {}

  absl::string_view name() const override {
    return mode_ == BufferUavMode::kSsbo ? "vulkan-ssbo" : "vulkan";
  }

  absl::StatusOr<isa::Outcome> Run(const isa::Case& c) override {
    if (absl::Status valid = isa::Validate(c); !valid.ok()) {
      return Refused(isa::RunStatus::kRejected, std::string(valid.message()));
    }
    absl::StatusOr<InstrumentedCase> ic = InstrumentForTrace(c);
    if (!ic.ok()) return Refused(isa::RunStatus::kRejected, std::string(ic.status().message()));
    const isa::Case& run = ic->instrumented;
    absl::StatusOr<std::vector<uint8_t>> dxbc = isa::EncodeDxbc(run.shader);
    if (!dxbc.ok()) {
      return Refused(isa::RunStatus::kRejected,
                     absl::StrCat("DXBC encoder: ", dxbc.status().message()));
    }
    const std::vector<UavBinding> bindings = Bindings(run);
    SpirvModule spirv = CompileDxbcToSpirv(*dxbc, bindings, mode_);
    if (!spirv.ok) {
      return Refused(isa::RunStatus::kRejected, absl::StrCat("vkd3d-shader: ", spirv.messages));
    }
    // Written up in docs/findings.md; repaired so that SSBO mode still runs
    // every case with two buffer UAVs.
    if (mode_ == BufferUavMode::kSsbo) DropRepeatedArrayStride(spirv.words);
    if (std::optional<std::string> invalid = ValidateSpirv(spirv.words)) {
      return Refused(isa::RunStatus::kInvalidCode, absl::StrCat("spirv-val: ", *invalid));
    }
    absl::StatusOr<VkContext*> vk = GetVkContext(options_.vk_device);
    if (!vk.ok()) return vk.status();
    if (std::string why = DeviceRefusal(**vk, run, bindings); !why.empty()) {
      return Refused(isa::RunStatus::kRejected, why);
    }
    absl::StatusOr<std::vector<isa::UavState>> uavs =
        Dispatch(**vk, run, spirv.words, bindings, mode_);
    if (!uavs.ok()) {
      // A dispatch that never ends or a lost device is the driver's
      // failure on this case, not a setup error.
      if (absl::IsDeadlineExceeded(uavs.status())) {
        return Refused(isa::RunStatus::kTimedOut, std::string(uavs.status().message()));
      }
      if (absl::IsUnavailable(uavs.status())) {
        return Refused(isa::RunStatus::kCrashed, std::string(uavs.status().message()));
      }
      return uavs.status();
    }
    isa::Outcome outcome;
    outcome.uavs = *std::move(uavs);
    TraceDecodeOptions decode;
    if (std::string((*vk)->properties.deviceName).find("llvmpipe") != std::string::npos) {
      decode.loop_cap = kLavapipeLoopCap;
      decode.loop_cap_name = "lavapipe loop cap";
    }
    outcome = DecodeTrace(c, ic->layout, std::move(outcome), decode);
    if (!options_.trace) {
      outcome.has_trace = false;
      outcome.trace.clear();
    }
    return outcome;
  }

 private:
  TargetOptions options_;
  BufferUavMode mode_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Target>> CreateVulkanTarget(const TargetOptions& options,
                                                           BufferUavMode mode) {
  if (!options.inject.empty()) {
    return absl::InvalidArgumentError("--inject is a fast-target option");
  }
  SetQuietEnvironment();  // vkd3d reads its variable once, on first use
  return std::make_unique<VulkanTarget>(options, mode);
}

}  // namespace atomfuzz::targets::vulkan
