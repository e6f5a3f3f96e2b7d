#include "targets/target_versions.h"

#include <cstdio>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "targets/isolation/run_in_child.h"
#include "targets/vulkan/component_versions.h"
#include "targets/wine/wine_session.h"

namespace atomfuzz::targets {
namespace {

// "wine-8.0 (Debian 8.0~repack-4)", from the wine64 the targets run.
std::string WineVersion() {
  absl::StatusOr<wine::WineSetup> setup = wine::FindWineSetup();
  std::string wine = setup.ok() ? setup->wine : "/usr/lib/wine/wine64";
  std::string out;
  if (FILE* p = popen(
          absl::StrCat("'", wine, "' --version 2>/dev/null").c_str(), "r")) {
    char line[256];
    while (fgets(line, sizeof line, p) != nullptr) out += line;
    pclose(p);
  }
  return std::string(absl::StripAsciiWhitespace(out));
}

// Rows as "key\tvalue\n" lines: what crosses the pipe from the child.
std::string Lines(const VersionRows& rows) {
  std::string out;
  for (const auto& [k, v] : rows) absl::StrAppend(&out, k, "\t", v, "\n");
  return out;
}

VersionRows Collect(const std::string& target) {
  const bool vulkan = absl::StartsWith(target, "vulkan");
  const bool wine = absl::StartsWith(target, "wine");
  VersionRows rows;
  if (!vulkan && !wine) return rows;
  std::vector<std::string> devices, mesa;
  for (const auto& [component, version] : vulkan::ComponentVersions()) {
    if (absl::StartsWith(component, "Vulkan device")) {
      devices.push_back(absl::StrCat(
          absl::StripPrefix(component, "Vulkan device "), ": ", version));
      if (const size_t at = version.find("Mesa "); at != std::string::npos)
        mesa.push_back(version.substr(at, version.find(',', at) - at));
    } else if (vulkan && component == "vkd3d-shader") {
      rows.emplace_back("version_vkd3d_shader", version);
    } else if (vulkan && component == "SPIRV-Tools") {
      rows.emplace_back("version_spirv_tools", version);
    } else if (component == "Vulkan loader") {
      rows.emplace_back("version_vulkan_loader", version);
    }
  }
  if (!devices.empty())
    rows.emplace_back("version_vulkan_device", absl::StrJoin(devices, "; "));
  if (!mesa.empty()) rows.emplace_back("version_mesa", mesa.front());
  if (wine) rows.emplace_back("version_wine", WineVersion());
  return rows;
}

}  // namespace

VersionRows TargetVersions(const std::string& target) {
  absl::StatusOr<std::string> lines =
      RunInChild([&] { return Lines(Collect(target)); });
  VersionRows rows;
  if (!lines.ok()) {
    rows.emplace_back("version_error", std::string(lines.status().message()));
    return rows;
  }
  for (absl::string_view line :
       absl::StrSplit(*lines, '\n', absl::SkipEmpty())) {
    std::pair<std::string, std::string> kv =
        absl::StrSplit(line, absl::MaxSplits('\t', 1));
    rows.push_back(std::move(kv));
  }
  return rows;
}

}  // namespace atomfuzz::targets
