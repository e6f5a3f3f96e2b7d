// atomfuzz --version: the commit it was built from and the versions of the
// components it drives, as a bug report names them.
#include <cstdio>
#include <string>

#include "absl/base/config.h"
#include "atomfuzz_version.h"
#include "targets/vulkan/component_versions.h"

namespace atomfuzz::cli {

int PrintVersion() {
  std::printf("atomfuzz %s\n", ATOMFUZZ_COMMIT);
  std::printf("  %-16s %s\n", "compiler", __VERSION__);
  std::printf("  %-16s %d\n", "abseil", ABSL_LTS_RELEASE_VERSION);
  for (const auto& [component, version] :
       targets::vulkan::ComponentVersions()) {
    std::printf("  %-16s %s\n", component.c_str(), version.c_str());
  }
  return 0;
}

}  // namespace atomfuzz::cli
