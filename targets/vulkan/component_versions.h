// The versions of what the vulkan targets drive (vkd3d-shader, SPIRV-Tools,
// the Vulkan loader and each device's driver), for `atomfuzz --version` and
// reports: a finding is filed against versions.
#ifndef ATOMFUZZ_TARGETS_VULKAN_COMPONENT_VERSIONS_H_
#define ATOMFUZZ_TARGETS_VULKAN_COMPONENT_VERSIONS_H_

#include <string>
#include <utility>
#include <vector>

namespace atomfuzz::targets::vulkan {

// (component, version) pairs, in the order they run a case. Without a
// Vulkan loader or device, those rows say so. Creates (and destroys) a
// Vulkan instance: call it where a driver may be loaded.
std::vector<std::pair<std::string, std::string>> ComponentVersions();

}  // namespace atomfuzz::targets::vulkan

#endif  // ATOMFUZZ_TARGETS_VULKAN_COMPONENT_VERSIONS_H_
