// The libvkd3d-shader a vulkan target compiles with: the one atomfuzz links
// (Debian's 1.2), or a user's own build chosen with --vkd3d=PATH.so and
// opened with dlopen, so that vkd3d versions can be fuzzed side by side. Its
// version goes into every finding (Target::Describe).
#ifndef ATOMFUZZ_TARGETS_VULKAN_VKD3D_LIBRARY_H_
#define ATOMFUZZ_TARGETS_VULKAN_VKD3D_LIBRARY_H_

#include <string>

#include "absl/status/statusor.h"

namespace atomfuzz::targets::vulkan {

// The library's entry points (vkd3d_api.h, for this folder's .cc files:
// vkd3d_shader.h stays out of the headers others include).
struct Vkd3dApi;

struct Vkd3dLibrary {
  std::string path;     // "" for the linked one
  std::string version;  // what vkd3d_shader_get_version says
  const Vkd3dApi* api = nullptr;
};

// The linked library.
const Vkd3dLibrary& LinkedVkd3d();

// "" is the linked library; a path is opened once (and kept) and must
// export the vkd3d-shader API (InvalidArgument naming what is missing). The
// structures atomfuzz fills are the 1.2 ones, which later versions accept.
absl::StatusOr<const Vkd3dLibrary*> LoadVkd3d(const std::string& path);

}  // namespace atomfuzz::targets::vulkan

#endif  // ATOMFUZZ_TARGETS_VULKAN_VKD3D_LIBRARY_H_
