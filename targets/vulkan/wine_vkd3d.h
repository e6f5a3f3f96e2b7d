// --vkd3d=wine: the vkd3d-shader Wine bundles inside wined3d.dll, as a
// Vkd3dLibrary. A Windows helper (targets/wine/runner/
// vkd3d_compile_server.c) compiles under wine64 in the Wine targets'
// prefix (no display: it only compiles), framed as
// targets/wine/compile_wire.h says. One helper per process: the vulkan
// targets compile in a fork-server child, which starts its own at its first
// compile and leaves its parent's alone.
#ifndef ATOMFUZZ_TARGETS_VULKAN_WINE_VKD3D_H_
#define ATOMFUZZ_TARGETS_VULKAN_WINE_VKD3D_H_

#include <memory>

#include "absl/status/statusor.h"
#include "targets/vulkan/vkd3d_library.h"

namespace atomfuzz::targets::vulkan {

// Starts the helper and asks its version (vkd3d_shader_get_version in
// Wine). FailedPrecondition, prefixed "--vkd3d=wine: ", when Wine, the
// helper or its vkd3d-shader is missing.
absl::StatusOr<std::unique_ptr<Vkd3dLibrary>> StartWineVkd3d();

}  // namespace atomfuzz::targets::vulkan

#endif  // ATOMFUZZ_TARGETS_VULKAN_WINE_VKD3D_H_
