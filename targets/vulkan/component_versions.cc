#include "targets/vulkan/component_versions.h"

#include <vkd3d_shader.h>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "spirv-tools/libspirv.h"
#include "targets/vulkan/vk_context.h"
#include "targets/vulkan/vk_loader.h"

namespace atomfuzz::targets::vulkan {
namespace {

std::string ApiVersion(uint32_t v) {
  return absl::StrFormat("%u.%u.%u", VK_API_VERSION_MAJOR(v),
                         VK_API_VERSION_MINOR(v), VK_API_VERSION_PATCH(v));
}

// Whether `d` offers robustBufferAccess2, without which an out-of-bounds
// buffer write may land anywhere in the buffer (vk_context.cc): the vulkan
// targets' out-of-bounds verdicts mean something only where it is "yes".
bool OffersRobustBufferAccess2(VkPhysicalDevice d) {
  VkPhysicalDeviceFeatures features;
  vkGetPhysicalDeviceFeatures(d, &features);
  const auto robust2 = Robustness2Features(d);
  return robust2 && robust2->robustBufferAccess2 == VK_TRUE &&
         features.robustBufferAccess == VK_TRUE;
}

// One row per physical device: its name, driver, the API it offers and
// whether it can drop out-of-bounds buffer writes as D3D does.
void AddDevices(std::vector<std::pair<std::string, std::string>>& rows) {
  auto app = VkStruct<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  app.pApplicationName = "atomfuzz --version";
  app.apiVersion = VK_API_VERSION_1_1;  // for the driver properties
  auto info =
      VkStruct<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  info.pApplicationInfo = &app;
  VkInstance instance = VK_NULL_HANDLE;
  if (vkCreateInstance(&info, nullptr, &instance) != VK_SUCCESS) {
    rows.emplace_back("Vulkan device", "none (no Vulkan loader or driver)");
    return;
  }
  uint32_t n = 0;
  vkEnumeratePhysicalDevices(instance, &n, nullptr);
  std::vector<VkPhysicalDevice> devices(n);
  vkEnumeratePhysicalDevices(instance, &n, devices.data());
  if (n == 0) rows.emplace_back("Vulkan device", "none");
  for (VkPhysicalDevice d : devices) {
    auto driver = VkStruct<VkPhysicalDeviceDriverProperties>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES);
    auto props = VkStruct<VkPhysicalDeviceProperties2>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
    props.pNext = &driver;
    vkGetPhysicalDeviceProperties2(d, &props);
    rows.emplace_back(
        absl::StrCat("Vulkan device ", props.properties.deviceName),
        absl::StrCat(driver.driverName, " ", driver.driverInfo, ", Vulkan ",
                     ApiVersion(props.properties.apiVersion),
                     absl::StrFormat(", driverVersion 0x%08x",
                                     props.properties.driverVersion),
                     ", robustBufferAccess2 ",
                     OffersRobustBufferAccess2(d) ? "yes" : "no"));
  }
  vkDestroyInstance(instance, nullptr);
}

}  // namespace

std::vector<std::pair<std::string, std::string>> ComponentVersions() {
  SetQuietEnvironment();
  std::vector<std::pair<std::string, std::string>> rows;
  unsigned major = 0, minor = 0;
  rows.emplace_back("vkd3d-shader", vkd3d_shader_get_version(&major, &minor));
  rows.emplace_back("SPIRV-Tools", spvSoftwareVersionDetailsString());
  if (absl::Status vulkan = LoadVulkan(); !vulkan.ok()) {
    rows.emplace_back("Vulkan loader", std::string(vulkan.message()));
    return rows;
  }
  uint32_t loader = 0;
  rows.emplace_back("Vulkan loader",
                    vkEnumerateInstanceVersion(&loader) == VK_SUCCESS
                        ? ApiVersion(loader)
                        : std::string("unknown"));
  AddDevices(rows);
  return rows;
}

}  // namespace atomfuzz::targets::vulkan
