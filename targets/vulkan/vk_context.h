// The process-wide Vulkan state: instance, device, one compute queue (a
// graphics one too where the device has one, for pixel cases), a command
// pool, a descriptor pool and a fence. Created once and reused: per
// program only the shader module, pipeline and descriptors change
// (docs/vulkan-target.md). A hung or crashed driver cannot be
// recovered in-process; isolate this target in a worker process.
#ifndef ATOMFUZZ_TARGETS_VULKAN_VK_CONTEXT_H_
#define ATOMFUZZ_TARGETS_VULKAN_VK_CONTEXT_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "targets/vulkan/vk_loader.h"

namespace atomfuzz::targets::vulkan {

// A zeroed Vulkan info structure of the given type.
template <typename T>
T VkStruct(VkStructureType type) {
  T t{};
  t.sType = type;
  return t;
}

// Vulkan return codes as statuses: device loss and out-of-memory are
// Unavailable/ResourceExhausted, the rest Internal.
absl::Status VkCheck(VkResult r, const char* what);

// The VK_EXT_robustness2 features `d` offers, or nullopt when it lacks the
// extension. Only robustBufferAccess2 (with robustBufferAccess) drops
// out-of-bounds buffer writes as D3D does (spec 1.3).
std::optional<VkPhysicalDeviceRobustness2FeaturesEXT> Robustness2Features(
    VkPhysicalDevice d);

// Whether `d` has VK_EXT_shader_demote_to_helper_invocation with its
// feature: a discard that keeps the invocation running as a helper, as
// D3D's does (docs/pixel-stage.md P.3).
bool HasDemoteToHelper(VkPhysicalDevice d);

struct VkContext {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  uint32_t queue_family = 0;
  VkQueue queue = VK_NULL_HANDLE;
  VkCommandPool command_pool = VK_NULL_HANDLE;
  VkDescriptorPool descriptor_pool = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties{};
  VkPhysicalDeviceMemoryProperties memory{};
  std::string device_substring;        // what selected it ("" = the first)
  bool robust_buffer_access2 = false;  // VK_EXT_robustness2 enabled
  // What a pixel case's draw needs, enabled where the device has it: a
  // queue that also draws, UAVs in fragment shaders, SampleId (vkd3d's
  // SV_SampleIndex: per-sample shading), PrimitiveId (the Geometry
  // capability) and OpDemoteToHelperInvocationEXT.
  bool graphics = false;
  bool fragment_stores_and_atomics = false;
  bool sample_rate_shading = false;
  bool geometry_shader = false;
  bool demote_to_helper = false;  // VK_EXT_shader_demote_to_helper_invocation

  // A memory type index with all of `flags` among `type_bits`, or -1.
  int FindMemoryType(uint32_t type_bits, VkMemoryPropertyFlags flags) const;
};

// Sets MESA_SHADER_CACHE_DISABLE=true and VKD3D_SHADER_DEBUG=none where the
// user has not set them. Call before vkd3d or the driver first runs.
void SetQuietEnvironment();

// The process's context, created on first use. `device_substring` picks the
// first physical device whose name contains it ("" = the first device).
// FailedPrecondition when there is no Vulkan loader or device, or when a
// different device was already chosen in this process.
absl::StatusOr<VkContext*> GetVkContext(const std::string& device_substring);

}  // namespace atomfuzz::targets::vulkan

#endif  // ATOMFUZZ_TARGETS_VULKAN_VK_CONTEXT_H_
