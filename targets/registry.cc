#include "targets/registry.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/match.h"
#include "targets/external/external_target.h"
#include "targets/fast/fast_target.h"
#include "targets/isolation/isolated_target.h"
#include "targets/vulkan/vulkan_target.h"

namespace atomfuzz::targets {

std::vector<std::string> TargetNames() { return {"fast", "vulkan", "vulkan-ssbo"}; }

absl::Status CheckInjection(const std::string& name, const TargetOptions& options) {
  if (options.inject.empty() || name == "fast") return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("--inject applies to --target=fast only, not '", name, "'"));
}

absl::StatusOr<std::unique_ptr<Target>> CreateTarget(const std::string& name,
                                                     const TargetOptions& options) {
  if (absl::Status s = CheckInjection(name, options); !s.ok()) return s;
  if (name == "fast") return fast::CreateFastTarget(options);
  if (absl::StartsWith(name, external::kPrefix)) {
    return external::CreateExternalTarget(name, options);
  }
  // vkd3d's two lowerings of buffer UAVs (texel buffers are its default).
  // The device lives in a child process: a driver crash, hang or
  // out-of-memory is an outcome, and the next case gets a fresh child.
  if (name == "vulkan" || name == "vulkan-ssbo") {
    const vulkan::BufferUavMode mode =
        name == "vulkan" ? vulkan::BufferUavMode::kTexel : vulkan::BufferUavMode::kSsbo;
    return Isolate(
        name, [options, mode] { return vulkan::CreateVulkanTarget(options, mode); },
        IsolationFor(options));
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown target '", name, "' (known: oracle, ",
      absl::StrJoin(TargetNames(), ", "), ", ext:PATH.so[:OPTIONS])"));
}

}  // namespace atomfuzz::targets
