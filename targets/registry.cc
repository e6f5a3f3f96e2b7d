#include "targets/registry.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "targets/fast/fast_target.h"
#include "targets/vulkan/vulkan_target.h"

namespace atomfuzz::targets {

std::vector<std::string> TargetNames() { return {"fast", "vulkan", "vulkan-ssbo"}; }

absl::StatusOr<std::unique_ptr<Target>> CreateTarget(const std::string& name,
                                                     const TargetOptions& options) {
  if (name == "fast") return fast::CreateFastTarget(options);
  // vkd3d's two lowerings of buffer UAVs (texel buffers are its default).
  if (name == "vulkan") return vulkan::CreateVulkanTarget(options, vulkan::BufferUavMode::kTexel);
  if (name == "vulkan-ssbo") {
    return vulkan::CreateVulkanTarget(options, vulkan::BufferUavMode::kSsbo);
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown target '", name, "' (known: oracle, ",
      absl::StrJoin(TargetNames(), ", "), ")"));
}

}  // namespace atomfuzz::targets
