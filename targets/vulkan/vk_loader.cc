#include "targets/vulkan/vk_loader.h"

#include <dlfcn.h>

#include "absl/strings/str_cat.h"

namespace atomfuzz::targets::vulkan {
namespace {

absl::Status Open() {
  // RTLD_LOCAL: the loader's symbols stay out of the global scope, where a
  // dlopened translator might otherwise bind to them.
  void* loader = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (loader == nullptr) {
    const char* why = dlerror();
    return absl::FailedPreconditionError(absl::StrCat(
        "no Vulkan: cannot open libvulkan.so.1 (", why ? why : "?",
        "); install a Vulkan loader and driver (Debian: libvulkan1 and "
        "mesa-vulkan-drivers for lavapipe)"));
  }
  // Never closed: the pointers live as long as the process.
#define ATOMFUZZ_VK_LOAD(fn)                                                   \
  fn = reinterpret_cast<PFN_##fn>(dlsym(loader, #fn));                         \
  if (fn == nullptr) {                                                         \
    return absl::FailedPreconditionError(                                      \
        absl::StrCat("no Vulkan: libvulkan.so.1 does not export " #fn          \
                     " (a Vulkan 1.1 loader is needed; Debian: libvulkan1)")); \
  }
  ATOMFUZZ_VK_FUNCTIONS(ATOMFUZZ_VK_LOAD)
#undef ATOMFUZZ_VK_LOAD
  return absl::OkStatus();
}

}  // namespace

absl::Status LoadVulkan() {
  static const absl::Status* const loaded = new absl::Status(Open());
  return *loaded;
}

}  // namespace atomfuzz::targets::vulkan
