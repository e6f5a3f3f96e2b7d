#include "targets/vulkan/vkd3d_library.h"

#include <dlfcn.h>

#include <map>
#include <memory>
#include <mutex>

#include "absl/strings/str_cat.h"
#include "targets/vulkan/vk_context.h"
#include "targets/vulkan/vkd3d_api.h"
#include "targets/vulkan/wine_vkd3d.h"

namespace atomfuzz::targets::vulkan {

const Vkd3dLibrary& LinkedVkd3d() {
  static const Vkd3dLibrary* const linked = [] {
    // vkd3d reads VKD3D_SHADER_DEBUG at its first call, this one.
    SetQuietEnvironment();
    auto* lib = new Vkd3dLibrary;
    unsigned major = 0, minor = 0;
    lib->version = vkd3d_shader_get_version(&major, &minor);
    lib->compiler = new InProcessVkd3d(Vkd3dApi{&vkd3d_shader_compile,
                                                &vkd3d_shader_free_shader_code,
                                                &vkd3d_shader_free_messages});
    return lib;
  }();
  return *linked;
}

absl::StatusOr<const Vkd3dLibrary*> LoadVkd3d(const std::string& path) {
  if (path.empty()) return &LinkedVkd3d();
  SetQuietEnvironment();  // before the library's first call
  static std::mutex mu;
  static auto* opened =
      new std::map<std::string, std::unique_ptr<Vkd3dLibrary>>;
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = opened->find(path); it != opened->end())
    return it->second.get();
  if (path == kWineVkd3d) {
    absl::StatusOr<std::unique_ptr<Vkd3dLibrary>> wine = StartWineVkd3d();
    if (!wine.ok()) return wine.status();
    return (*opened)[path] = *std::move(wine), (*opened)[path].get();
  }
  // RTLD_LOCAL: its symbols must not replace the linked library's.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("--vkd3d=", path, ": ", dlerror()));
  }
  auto lib = std::make_unique<Vkd3dLibrary>();
  lib->path = path;
  Vkd3dApi api;
  auto get_version = reinterpret_cast<decltype(&vkd3d_shader_get_version)>(
      dlsym(handle, "vkd3d_shader_get_version"));
  api.compile = reinterpret_cast<decltype(api.compile)>(
      dlsym(handle, "vkd3d_shader_compile"));
  api.free_code = reinterpret_cast<decltype(api.free_code)>(
      dlsym(handle, "vkd3d_shader_free_shader_code"));
  api.free_messages = reinterpret_cast<decltype(api.free_messages)>(
      dlsym(handle, "vkd3d_shader_free_messages"));
  if (get_version == nullptr || api.compile == nullptr ||
      api.free_code == nullptr || api.free_messages == nullptr) {
    dlclose(handle);
    return absl::InvalidArgumentError(absl::StrCat(
        "--vkd3d=", path,
        ": expected a libvkd3d-shader exporting vkd3d_shader_get_version, "
        "vkd3d_shader_compile and vkd3d_shader_free_*"));
  }
  unsigned major = 0, minor = 0;
  lib->version = get_version(&major, &minor);
  // Kept with the library, which is never closed.
  lib->compiler = new InProcessVkd3d(api);
  return (*opened)[path] = std::move(lib), (*opened)[path].get();
}

}  // namespace atomfuzz::targets::vulkan
