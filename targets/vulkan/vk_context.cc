#include "targets/vulkan/vk_context.h"

#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace atomfuzz::targets::vulkan {
namespace {

bool HasExtension(VkPhysicalDevice d, const char* name) {
  uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(d, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateDeviceExtensionProperties(d, nullptr, &count, extensions.data());
  for (const VkExtensionProperties& e : extensions) {
    if (std::string(e.extensionName) == name) return true;
  }
  return false;
}

absl::StatusOr<VkContext> CreateContext(const std::string& substring) {
  SetQuietEnvironment();
  if (absl::Status loaded = LoadVulkan(); !loaded.ok()) return loaded;
  VkContext c;
  c.device_substring = substring;
  VkApplicationInfo app =
      VkStruct<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  app.pApplicationName = "atomfuzz";
  app.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo ici =
      VkStruct<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  ici.pApplicationInfo = &app;
  if (VkResult r = vkCreateInstance(&ici, nullptr, &c.instance);
      r != VK_SUCCESS) {
    return absl::FailedPreconditionError(absl::StrCat(
        "no Vulkan: vkCreateInstance failed (", static_cast<int>(r),
        "); install a Vulkan loader and driver (e.g. mesa-vulkan-drivers for "
        "lavapipe)"));
  }
  uint32_t count = 0;
  vkEnumeratePhysicalDevices(c.instance, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  vkEnumeratePhysicalDevices(c.instance, &count, devices.data());
  // No substring: lavapipe (llvmpipe) where present, else the first device.
  std::vector<std::string> names;
  for (const std::string& want :
       {substring.empty() ? std::string("llvmpipe") : substring, substring}) {
    names.clear();
    for (VkPhysicalDevice d : devices) {
      VkPhysicalDeviceProperties p;
      vkGetPhysicalDeviceProperties(d, &p);
      names.push_back(p.deviceName);
      if (c.physical == VK_NULL_HANDLE &&
          names.back().find(want) != std::string::npos) {
        c.physical = d;
        c.properties = p;
      }
    }
  }
  if (c.physical == VK_NULL_HANDLE) {
    vkDestroyInstance(c.instance, nullptr);
    return absl::FailedPreconditionError(
        devices.empty()
            ? std::string("no Vulkan physical device")
            : absl::StrCat("no Vulkan device name contains '", substring,
                           "' (devices: ", absl::StrJoin(names, ", "), ")"));
  }
  vkGetPhysicalDeviceMemoryProperties(c.physical, &c.memory);
  vkGetPhysicalDeviceQueueFamilyProperties(c.physical, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(c.physical, &count, families.data());
  // A family that computes and draws where there is one (pixel cases draw);
  // else the first that computes.
  bool found = false;
  constexpr VkQueueFlags kBoth = VK_QUEUE_COMPUTE_BIT | VK_QUEUE_GRAPHICS_BIT;
  for (uint32_t i = 0; i < count && !found; ++i) {
    if ((families[i].queueFlags & kBoth) == kBoth) {
      c.queue_family = i;
      c.graphics = true;
      found = true;
    }
  }
  for (uint32_t i = 0; i < count && !found; ++i) {
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
      c.queue_family = i;
      found = true;
    }
  }
  if (!found) {
    vkDestroyInstance(c.instance, nullptr);
    return absl::FailedPreconditionError(absl::StrCat(
        "Vulkan device '", c.properties.deviceName, "' has no compute queue"));
  }
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo qci = VkStruct<VkDeviceQueueCreateInfo>(
      VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  qci.queueFamilyIndex = c.queue_family;
  qci.queueCount = 1;
  qci.pQueuePriorities = &priority;
  VkPhysicalDeviceFeatures features{};
  VkPhysicalDeviceFeatures supported;
  vkGetPhysicalDeviceFeatures(c.physical, &supported);
  // D3D discards out-of-bounds UAV writes (spec 1.3). robustBufferAccess
  // alone lets a driver write them anywhere inside the buffer; only
  // robustBufferAccess2 (VK_EXT_robustness2) discards them, as vkd3d-proton
  // requires. Both where the device has them.
  features.robustBufferAccess = supported.robustBufferAccess;
  // vkd3d declares typed UAVs it cannot give a SPIR-V format (the trace
  // log among them) as written and read without one: using those
  // capabilities without the features is invalid (the validation layer
  // says so), however lavapipe runs it.
  features.shaderStorageImageWriteWithoutFormat =
      supported.shaderStorageImageWriteWithoutFormat;
  features.shaderStorageImageReadWithoutFormat =
      supported.shaderStorageImageReadWithoutFormat;
  // Pixel cases (vk_draw.h); none changes what a compute shader does.
  features.fragmentStoresAndAtomics = supported.fragmentStoresAndAtomics;
  features.sampleRateShading = supported.sampleRateShading;
  features.geometryShader = supported.geometryShader;
  c.fragment_stores_and_atomics = supported.fragmentStoresAndAtomics;
  c.sample_rate_shading = supported.sampleRateShading;
  c.geometry_shader = supported.geometryShader;
  std::vector<const char*> extensions;
  const void* chain = nullptr;
  std::optional<VkPhysicalDeviceRobustness2FeaturesEXT> robust2 =
      Robustness2Features(c.physical);
  if (robust2) {
    robust2->robustImageAccess2 = VK_FALSE;
    robust2->nullDescriptor = VK_FALSE;
    c.robust_buffer_access2 = robust2->robustBufferAccess2 == VK_TRUE &&
                              features.robustBufferAccess == VK_TRUE;
  }
  if (c.robust_buffer_access2) {
    extensions.push_back(VK_EXT_ROBUSTNESS_2_EXTENSION_NAME);
    chain = &*robust2;
  }
  auto demote = VkStruct<
      VkPhysicalDeviceShaderDemoteToHelperInvocationFeaturesEXT>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DEMOTE_TO_HELPER_INVOCATION_FEATURES_EXT);
  c.demote_to_helper = HasDemoteToHelper(c.physical);
  if (c.demote_to_helper) {
    extensions.push_back(
        VK_EXT_SHADER_DEMOTE_TO_HELPER_INVOCATION_EXTENSION_NAME);
    demote.shaderDemoteToHelperInvocation = VK_TRUE;
    demote.pNext = const_cast<void*>(chain);
    chain = &demote;
  }
  VkDeviceCreateInfo dci =
      VkStruct<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  dci.pEnabledFeatures = &features;
  dci.pNext = chain;
  dci.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  dci.ppEnabledExtensionNames = extensions.data();
  if (VkResult r = vkCreateDevice(c.physical, &dci, nullptr, &c.device);
      r != VK_SUCCESS) {
    vkDestroyInstance(c.instance, nullptr);
    return absl::FailedPreconditionError(
        absl::StrCat("vkCreateDevice failed on '", c.properties.deviceName,
                     "' (", static_cast<int>(r), ")"));
  }
  vkGetDeviceQueue(c.device, c.queue_family, 0, &c.queue);
  VkCommandPoolCreateInfo pci = VkStruct<VkCommandPoolCreateInfo>(
      VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pci.queueFamilyIndex = c.queue_family;
  if (absl::Status s =
          VkCheck(vkCreateCommandPool(c.device, &pci, nullptr, &c.command_pool),
                  "vkCreateCommandPool");
      !s.ok()) {
    return s;
  }
  // Enough for one run's set: 64 UAVs, their counters and the trace log.
  const VkDescriptorPoolSize sizes[] = {
      {VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 160},
      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 160},
      {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 80},
  };
  VkDescriptorPoolCreateInfo dpci = VkStruct<VkDescriptorPoolCreateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
  dpci.maxSets = 1;
  dpci.poolSizeCount = 3;
  dpci.pPoolSizes = sizes;
  if (absl::Status s = VkCheck(
          vkCreateDescriptorPool(c.device, &dpci, nullptr, &c.descriptor_pool),
          "vkCreateDescriptorPool");
      !s.ok()) {
    return s;
  }
  VkFenceCreateInfo fci =
      VkStruct<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
  if (absl::Status s = VkCheck(vkCreateFence(c.device, &fci, nullptr, &c.fence),
                               "vkCreateFence");
      !s.ok()) {
    return s;
  }
  return c;
}

}  // namespace

void SetQuietEnvironment() {
  // Unless the user chose: Mesa's disk cache would hide the JIT cost and
  // grow without bound under fuzzing. vkd3d prints its FIXME lines (often
  // its only word on why it refuses a shader) to stderr, where the
  // compiler captures them (stderr_capture.h).
  setenv("MESA_SHADER_CACHE_DISABLE", "true", /*overwrite=*/0);
  setenv("VKD3D_SHADER_DEBUG", "fixme", /*overwrite=*/0);
}

absl::Status VkCheck(VkResult r, const char* what) {
  if (r == VK_SUCCESS) return absl::OkStatus();
  const std::string msg =
      absl::StrCat(what, " failed (VkResult ", static_cast<int>(r), ")");
  if (r == VK_ERROR_DEVICE_LOST) return absl::UnavailableError(msg);
  if (r == VK_ERROR_OUT_OF_HOST_MEMORY || r == VK_ERROR_OUT_OF_DEVICE_MEMORY) {
    return absl::ResourceExhaustedError(msg);
  }
  return absl::InternalError(msg);
}

std::optional<VkPhysicalDeviceRobustness2FeaturesEXT> Robustness2Features(
    VkPhysicalDevice d) {
  if (!HasExtension(d, VK_EXT_ROBUSTNESS_2_EXTENSION_NAME)) return std::nullopt;
  auto robust2 = VkStruct<VkPhysicalDeviceRobustness2FeaturesEXT>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT);
  auto query = VkStruct<VkPhysicalDeviceFeatures2>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  query.pNext = &robust2;
  vkGetPhysicalDeviceFeatures2(d, &query);
  robust2.pNext = nullptr;
  return robust2;
}

bool HasDemoteToHelper(VkPhysicalDevice d) {
  if (!HasExtension(d,
                    VK_EXT_SHADER_DEMOTE_TO_HELPER_INVOCATION_EXTENSION_NAME)) {
    return false;
  }
  auto demote = VkStruct<
      VkPhysicalDeviceShaderDemoteToHelperInvocationFeaturesEXT>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DEMOTE_TO_HELPER_INVOCATION_FEATURES_EXT);
  auto query = VkStruct<VkPhysicalDeviceFeatures2>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  query.pNext = &demote;
  vkGetPhysicalDeviceFeatures2(d, &query);
  return demote.shaderDemoteToHelperInvocation == VK_TRUE;
}

int VkContext::FindMemoryType(uint32_t type_bits,
                              VkMemoryPropertyFlags flags) const {
  for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
    if ((type_bits & (1u << i)) &&
        (memory.memoryTypes[i].propertyFlags & flags) == flags) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

absl::StatusOr<VkContext*> GetVkContext(const std::string& device_substring) {
  // The one piece of process-global state of this target. Never destroyed:
  // drivers do not like teardown at exit, and the process ends anyway.
  static std::mutex mu;
  static VkContext* context = nullptr;
  static absl::Status failure = absl::OkStatus();
  std::lock_guard<std::mutex> lock(mu);
  if (context == nullptr && failure.ok()) {
    absl::StatusOr<VkContext> c = CreateContext(device_substring);
    if (c.ok()) {
      context = new VkContext(*c);
    } else {
      failure = c.status();
    }
  }
  if (!failure.ok()) return failure;
  if (context->device_substring != device_substring) {
    return absl::FailedPreconditionError(
        absl::StrCat("this process already uses Vulkan device '",
                     context->properties.deviceName, "'; --vk-device='",
                     device_substring, "' needs a new process"));
  }
  return context;
}

}  // namespace atomfuzz::targets::vulkan
