// The vkd3d-shader a vulkan target compiles with: the libvkd3d-shader
// atomfuzz links (Debian's 1.2), a user's own build chosen with
// --vkd3d=PATH.so and opened with dlopen, or, with --vkd3d=wine, the one
// Wine bundles in wined3d.dll (1.6 in Wine 8.0), run by a Windows helper
// (wine_vkd3d.h), so that vkd3d versions can be fuzzed side by side on one
// driver. Its version goes into every finding (Target::Describe).
#ifndef ATOMFUZZ_TARGETS_VULKAN_VKD3D_LIBRARY_H_
#define ATOMFUZZ_TARGETS_VULKAN_VKD3D_LIBRARY_H_

#include <string>

#include "absl/status/statusor.h"
#include "targets/vulkan/spirv_compiler.h"

namespace atomfuzz::targets::vulkan {

// --vkd3d's value that names Wine's vkd3d-shader.
inline constexpr char kWineVkd3d[] = "wine";

struct Vkd3dLibrary {
  std::string path;     // "" for the linked one, kWineVkd3d, or the .so
  std::string version;  // what vkd3d_shader_get_version says
  SpirvCompiler* compiler = nullptr;  // kept for the process's life
};

// The linked library.
const Vkd3dLibrary& LinkedVkd3d();

// "" is the linked library; kWineVkd3d starts the Wine helper once
// (FailedPrecondition naming what is missing); a path is opened once (and
// kept) and must export the vkd3d-shader API (InvalidArgument naming what
// is missing). The structures atomfuzz fills are the 1.2 ones, which later
// versions accept.
absl::StatusOr<const Vkd3dLibrary*> LoadVkd3d(const std::string& path);

}  // namespace atomfuzz::targets::vulkan

#endif  // ATOMFUZZ_TARGETS_VULKAN_VKD3D_LIBRARY_H_
