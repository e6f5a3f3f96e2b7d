// The Vulkan loader, opened when a Vulkan target first needs it instead of
// linked: a binary that never makes a Vulkan device (the fast target's
// fuzzers, the CLI on a machine without the loader) then does not need
// libvulkan.so.1 to start, and a missing loader is a message rather than a
// program that cannot be run (docs/oss-fuzz.md: fuzzers must be
// self-contained).
//
// Each Vulkan function atomfuzz calls is a pointer of this namespace, named
// as the function, so that code inside the namespace calls vkCreateDevice(...)
// as it would the prototype. Include this header, not <vulkan/vulkan.h>.
#ifndef ATOMFUZZ_TARGETS_VULKAN_VK_LOADER_H_
#define ATOMFUZZ_TARGETS_VULKAN_VK_LOADER_H_

#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES
#endif
#include <vulkan/vulkan.h>

#include "absl/status/status.h"

namespace atomfuzz::targets::vulkan {

// Every function used, core Vulkan 1.0 and 1.1, which the loader exports.
// clang-format off
#define ATOMFUZZ_VK_FUNCTIONS(X) \
  X(vkAllocateCommandBuffers) \
  X(vkAllocateDescriptorSets) \
  X(vkAllocateMemory) \
  X(vkBeginCommandBuffer) \
  X(vkBindBufferMemory) \
  X(vkBindImageMemory) \
  X(vkCmdBeginRenderPass) \
  X(vkCmdBindDescriptorSets) \
  X(vkCmdBindPipeline) \
  X(vkCmdBindVertexBuffers) \
  X(vkCmdCopyBufferToImage) \
  X(vkCmdCopyImageToBuffer) \
  X(vkCmdDispatch) \
  X(vkCmdDraw) \
  X(vkCmdEndRenderPass) \
  X(vkCmdPipelineBarrier) \
  X(vkCreateBuffer) \
  X(vkCreateBufferView) \
  X(vkCreateCommandPool) \
  X(vkCreateComputePipelines) \
  X(vkCreateDescriptorPool) \
  X(vkCreateDescriptorSetLayout) \
  X(vkCreateDevice) \
  X(vkCreateFence) \
  X(vkCreateFramebuffer) \
  X(vkCreateGraphicsPipelines) \
  X(vkCreateImage) \
  X(vkCreateImageView) \
  X(vkCreateInstance) \
  X(vkCreatePipelineLayout) \
  X(vkCreateRenderPass) \
  X(vkCreateShaderModule) \
  X(vkDestroyBuffer) \
  X(vkDestroyBufferView) \
  X(vkDestroyDescriptorSetLayout) \
  X(vkDestroyFramebuffer) \
  X(vkDestroyImage) \
  X(vkDestroyImageView) \
  X(vkDestroyInstance) \
  X(vkDestroyPipeline) \
  X(vkDestroyPipelineLayout) \
  X(vkDestroyRenderPass) \
  X(vkDestroyShaderModule) \
  X(vkEndCommandBuffer) \
  X(vkEnumerateDeviceExtensionProperties) \
  X(vkEnumerateInstanceVersion) \
  X(vkEnumeratePhysicalDevices) \
  X(vkFreeCommandBuffers) \
  X(vkFreeMemory) \
  X(vkGetBufferMemoryRequirements) \
  X(vkGetDeviceQueue) \
  X(vkGetImageMemoryRequirements) \
  X(vkGetPhysicalDeviceFeatures) \
  X(vkGetPhysicalDeviceFeatures2) \
  X(vkGetPhysicalDeviceMemoryProperties) \
  X(vkGetPhysicalDeviceProperties) \
  X(vkGetPhysicalDeviceProperties2) \
  X(vkGetPhysicalDeviceQueueFamilyProperties) \
  X(vkMapMemory) \
  X(vkQueueSubmit) \
  X(vkResetDescriptorPool) \
  X(vkResetFences) \
  X(vkUpdateDescriptorSets) \
  X(vkWaitForFences)
// clang-format on

#define ATOMFUZZ_VK_DECLARE(name) inline PFN_##name name = nullptr;
ATOMFUZZ_VK_FUNCTIONS(ATOMFUZZ_VK_DECLARE)
#undef ATOMFUZZ_VK_DECLARE

// Opens the loader and fills every pointer above, once per process (later
// calls return the first call's status). FailedPrecondition, with what to
// install, where there is no loader or it lacks a function.
absl::Status LoadVulkan();

}  // namespace atomfuzz::targets::vulkan

#endif  // ATOMFUZZ_TARGETS_VULKAN_VK_LOADER_H_
