#include "targets/vulkan/vulkan_target.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "isa/validator.h"
#include "targets/case_batch.h"
#include "targets/trace_instrumentation.h"
#include "targets/vulkan/case_shader.h"
#include "targets/vulkan/vk_context.h"
#include "targets/vulkan/vk_dispatch.h"
#include "targets/vulkan/vk_draw.h"

namespace atomfuzz::targets::vulkan {
namespace {

// A shader ready to dispatch, or the refusal of the DXBC encoder, vkd3d,
// spirv-val or the device. Compiling is cheap (about 0.1 ms); lavapipe's
// JIT at the first dispatch is what costs (about 12 ms a shader).
struct Compiled {
  std::optional<isa::Outcome> refused;
  absl::Status error;  // a compiler that could not be asked
  std::vector<uint32_t> spirv;
  std::vector<UavBinding> bindings;
};

Compiled Compile(const VkContext& vk, const isa::Case& run, BufferUavMode mode,
                 const Vkd3dLibrary& vkd3d,
                 DiscardMode discard = DiscardMode::kKill) {
  CaseShader shader = CompileCase(run, mode, vkd3d, discard);
  Compiled out;
  out.error = shader.compiler;
  out.refused = std::move(shader.refused);
  out.bindings = std::move(shader.bindings);
  out.spirv = std::move(shader.spirv);
  if (!out.refused && out.error.ok()) {
    if (std::string why = DeviceRefusal(vk, run, out.bindings, mode);
        !why.empty()) {
      out.refused = isa::Outcome::Ended(isa::RunStatus::kRejected, why);
    }
  }
  return out;
}

// The instrumented outcome of a compiled case: kOk with its UAVs as the
// device left them, or the refusal.
absl::StatusOr<isa::Outcome> Execute(VkContext& vk, const isa::Case& run,
                                     const Compiled& shader,
                                     BufferUavMode mode) {
  if (!shader.error.ok()) return shader.error;
  if (shader.refused) return *shader.refused;
  absl::StatusOr<std::vector<isa::UavState>> uavs =
      run.shader.pixel()
          ? Draw(vk, run, shader.spirv, shader.bindings, mode)
          : Dispatch(vk, run, shader.spirv, shader.bindings, mode);
  if (!uavs.ok()) {
    // A dispatch that never ends or a lost device is the driver's failure
    // on this case, not a setup error.
    if (absl::IsDeadlineExceeded(uavs.status())) {
      return isa::Outcome::Ended(isa::RunStatus::kTimedOut,
                                 std::string(uavs.status().message()));
    }
    if (absl::IsUnavailable(uavs.status())) {
      return isa::Outcome::Ended(isa::RunStatus::kCrashed,
                                 std::string(uavs.status().message()));
    }
    return uavs.status();
  }
  isa::Outcome outcome;
  outcome.uavs = *std::move(uavs);
  return outcome;
}

// One case on its way: refused by the validator or the instrumentation, or
// instrumented (and, in a batch, compiled alone, so that a case vkd3d or
// spirv-val refuses gets that refusal and never spoils a batch).
struct Prepared {
  std::optional<isa::Outcome> refused;
  InstrumentedCase ic;
  std::optional<Compiled> alone;
};

uint32_t Loops(const isa::Program& p) {
  return static_cast<uint32_t>(std::count_if(
      p.instructions.begin(), p.instructions.end(),
      [](const isa::Instruction& in) { return in.op == isa::Op::kLoop; }));
}

Prepared Prepare(const isa::Case& c) {
  Prepared p;
  if (absl::Status valid = isa::Validate(c); !valid.ok()) {
    p.refused = isa::Outcome::Ended(isa::RunStatus::kRejected,
                                    std::string(valid.message()));
    return p;
  }
  absl::StatusOr<InstrumentedCase> ic = InstrumentForTrace(c);
  if (!ic.ok()) {
    p.refused = isa::Outcome::Ended(isa::RunStatus::kRejected,
                                    std::string(ic.status().message()));
  } else {
    p.ic = *std::move(ic);
  }
  return p;
}

class VulkanTarget : public Target {
 public:
  VulkanTarget(const TargetOptions& options, BufferUavMode mode,
               DiscardMode discard, const Vkd3dLibrary* vkd3d)
      : options_(options),
        device_(options.Flag(kDeviceFlag)),
        mode_(mode),
        discard_(discard),
        vkd3d_(vkd3d) {}

  std::string Describe() const override {
    return VulkanDescription(std::string(name()), *vkd3d_);
  }

  absl::string_view name() const override {
    if (discard_ == DiscardMode::kDemote) return "vulkan-demote";
    return mode_ == BufferUavMode::kSsbo ? "vulkan-ssbo" : "vulkan";
  }
  bool RunsStage(isa::Stage) const override { return true; }

  absl::StatusOr<isa::Outcome> Run(const isa::Case& c) override {
    Prepared p = Prepare(c);
    if (p.refused) return *std::move(p.refused);
    absl::StatusOr<VkContext*> vk = Context();
    if (!vk.ok()) return vk.status();
    return RunAlone(**vk, c, p);
  }

  // Cases of one batch key share a shader and a dispatch while they fit
  // the device; a batch that vkd3d, spirv-val or the device refuses runs
  // its cases one by one, so that each gets its own outcome.
  std::vector<absl::StatusOr<isa::Outcome>> RunBatch(
      absl::Span<const isa::Case> cases) override {
    std::vector<absl::StatusOr<isa::Outcome>> out(
        cases.size(), absl::InternalError("not run"));
    absl::StatusOr<VkContext*> vk = Context();
    std::vector<Prepared> prepared;
    std::map<std::optional<BatchKey>, std::vector<size_t>> by_key;
    for (size_t i = 0; i < cases.size(); ++i) {
      Prepared& p = prepared.emplace_back(Prepare(cases[i]));
      if (!p.refused && vk.ok()) {
        p.alone = Compile(**vk, p.ic.instrumented, mode_, *vkd3d_, discard_);
        p.refused = p.alone->refused;
      }
      if (p.alone && !p.alone->error.ok()) {
        out[i] = p.alone->error;
      } else if (p.refused) {
        out[i] = *p.refused;
      } else if (!vk.ok()) {
        out[i] = vk.status();
      } else {
        // lavapipe runs a loop no thread of the group enters until the
        // masked-off lanes would leave it, on the shader's one loop budget
        // (docs/findings.md #10): another case's loop could cut this case's
        // loops short, so a case with loops runs alone. So does a pixel
        // case (it has no group size: BatchKeyOf gives none).
        by_key[Loops(cases[i].shader) > 0 ? std::nullopt
                                          : BatchKeyOf(p.ic.instrumented)]
            .push_back(i);
      }
    }
    if (!vk.ok()) return out;
    const BatchLimits limits = VulkanBatchLimits(DescriptorLimit(**vk, mode_));
    for (const auto& [key, members] : by_key) {
      BatchBuilder builder(limits);
      std::vector<size_t> batch;
      auto flush = [&] {
        RunTogether(**vk, cases, prepared, builder, batch, out);
        builder = BatchBuilder(limits);
        batch.clear();
      };
      for (size_t i : members) {
        if (!builder.Add(prepared[i].ic.instrumented)) {
          flush();
          if (!builder.Add(prepared[i].ic.instrumented)) {
            out[i] = RunAlone(**vk, cases[i], prepared[i]);  // fits no batch
            continue;
          }
        }
        batch.push_back(i);
      }
      flush();
    }
    return out;
  }

 private:
  // The original case's outcome from its instrumented run.
  // `other_loops`: loops of the other cases of its batch. lavapipe runs
  // both sides of a branch under a mask, so a thread may start each of
  // them once more, toward its loop cap.
  isa::Outcome Finish(const VkContext& vk, const isa::Case& c,
                      const TraceLayout& layout, isa::Outcome run,
                      uint32_t other_loops = 0) const {
    TraceDecodeOptions decode;
    if (std::string(vk.properties.deviceName).find("llvmpipe") !=
        std::string::npos) {
      decode.loop_cap =
          kLavapipeLoopCap - std::min(other_loops, kLavapipeLoopCap - 1);
      decode.loop_cap_name = "lavapipe loop cap";
    }
    isa::Outcome outcome = DecodeTrace(c, layout, std::move(run), decode);
    if (!options_.trace) {
      outcome.has_trace = false;
      outcome.trace.clear();
    }
    return outcome;
  }

  absl::StatusOr<isa::Outcome> RunAlone(VkContext& vk, const isa::Case& c,
                                        const Prepared& p) {
    const Compiled shader =
        p.alone ? *p.alone
                : Compile(vk, p.ic.instrumented, mode_, *vkd3d_, discard_);
    absl::StatusOr<isa::Outcome> run =
        Execute(vk, p.ic.instrumented, shader, mode_);
    if (!run.ok() || run->status != isa::RunStatus::kOk) return run;
    return Finish(vk, c, p.ic.layout, *std::move(run));
  }

  // Runs cases[batch] as one dispatch, or one by one when that fails.
  void RunTogether(VkContext& vk, absl::Span<const isa::Case> cases,
                   const std::vector<Prepared>& prepared,
                   const BatchBuilder& builder,
                   const std::vector<size_t>& batch,
                   std::vector<absl::StatusOr<isa::Outcome>>& out) {
    if (batch.size() > 1) {
      absl::StatusOr<Batch> combined = builder.Build();
      absl::StatusOr<isa::Outcome> run = absl::InternalError("no batch");
      if (combined.ok()) {
        run = Execute(vk, combined->combined,
                      Compile(vk, combined->combined, mode_, *vkd3d_, discard_),
                      mode_);
      }
      if (run.ok() && run->status == isa::RunStatus::kOk) {
        const uint32_t loops = Loops(combined->combined.shader);
        std::vector<isa::Outcome> split =
            SplitBatchOutcome(*std::move(run), *combined);
        for (size_t k = 0; k < batch.size(); ++k) {
          const size_t i = batch[k];
          out[i] = Finish(vk, cases[i], prepared[i].ic.layout,
                          std::move(split[k]), loops);
          // The records' own loops are all the batch has; one that spent
          // the budget shows as a record cut short, and then the case's
          // outcome is its own run's.
          if (out[i].ok() && out[i]->message.starts_with(kRecordCutShort)) {
            out[i] = RunAlone(vk, cases[i], prepared[i]);
          }
        }
        return;
      }
    }
    for (size_t i : batch) out[i] = RunAlone(vk, cases[i], prepared[i]);
  }

  // The device, when it can do what this target asks of it.
  absl::StatusOr<VkContext*> Context() const {
    absl::StatusOr<VkContext*> vk = GetVkContext(device_);
    if (vk.ok() && discard_ == DiscardMode::kDemote &&
        !(*vk)->demote_to_helper) {
      return absl::FailedPreconditionError(absl::StrCat(
          "'", (*vk)->properties.deviceName,
          "' has no VK_EXT_shader_demote_to_helper_invocation: ", name(),
          " needs it"));
    }
    return vk;
  }

  TargetOptions options_;
  std::string device_;  // --vk-device: a substring of the device's name
  BufferUavMode mode_;
  DiscardMode discard_;
  const Vkd3dLibrary* vkd3d_;  // --vkd3d: the compiler
};

}  // namespace

std::string VulkanDescription(const std::string& name,
                              const Vkd3dLibrary& vkd3d) {
  if (vkd3d.path == kWineVkd3d)
    return absl::StrCat(name, ": ", vkd3d.version, " from Wine's wined3d.dll");
  return absl::StrCat(
      name, ": ", vkd3d.version,
      vkd3d.path.empty() ? " (linked)" : absl::StrCat(" from ", vkd3d.path));
}

BatchLimits VulkanBatchLimits(uint32_t descriptors) {
  BatchLimits limits;
  limits.max_descriptors = descriptors;
  limits.max_words = kMaxDispatchWords;
  limits.max_memory_ops = 32;
  limits.max_barriers = 0;
  return limits;
}

absl::StatusOr<std::unique_ptr<Target>> CreateVulkanTarget(
    const TargetOptions& options, BufferUavMode mode, DiscardMode discard) {
  for (const auto& [flag, value] : options.flags) {
    if (!value.empty() && flag != kDeviceFlag && flag != kVkd3dFlag) {
      return absl::InvalidArgumentError(
          absl::StrCat("--", flag, " is not an option of the vulkan targets"));
    }
  }
  absl::StatusOr<const Vkd3dLibrary*> vkd3d =
      LoadVkd3d(options.Flag(kVkd3dFlag));
  if (!vkd3d.ok()) return vkd3d.status();
  SetQuietEnvironment();  // vkd3d reads its variable once, on first use
  return std::make_unique<VulkanTarget>(options, mode, discard, *vkd3d);
}

}  // namespace atomfuzz::targets::vulkan
