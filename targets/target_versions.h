// The versions of the components a target drives, as a finding records
// them in its [metadata] (keys "version_vkd3d_shader",
// "version_vulkan_device", "version_mesa", "version_wine", ...: metadata
// keys are letters, digits and '_'): a bug is filed against versions.
#ifndef ATOMFUZZ_TARGETS_TARGET_VERSIONS_H_
#define ATOMFUZZ_TARGETS_TARGET_VERSIONS_H_

#include <string>
#include <utility>
#include <vector>

namespace atomfuzz::targets {

using VersionRows = std::vector<std::pair<std::string, std::string>>;

// For a --target name; none for targets of our own (oracle, fast) and
// ext: libraries (which say nothing of themselves). Looked up in a
// short-lived child process: creating a Vulkan instance loads the driver
// and its threads, which a process that forks workers must not hold.
VersionRows TargetVersions(const std::string& target);

}  // namespace atomfuzz::targets

#endif  // ATOMFUZZ_TARGETS_TARGET_VERSIONS_H_
