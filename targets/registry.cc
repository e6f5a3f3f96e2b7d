#include "targets/registry.h"

#include <algorithm>
#include <mutex>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "targets/external/external_target.h"
#include "targets/fast/fast_target.h"
#include "targets/isolation/isolated_target.h"
#include "targets/vulkan/vulkan_target.h"
#include "targets/wine/wine_target.h"

namespace atomfuzz::targets {
namespace {

// vkd3d's two lowerings of buffer UAVs (texel buffers are its default) and
// of discard (OpKill is its default). The device lives in a child process: a
// driver crash, hang or out-of-memory is an outcome, and the next case gets
// a fresh child.
TargetInfo Vulkan(const char* name, const char* description,
                  vulkan::BufferUavMode mode,
                  vulkan::DiscardMode discard = vulkan::DiscardMode::kKill) {
  return {name,
          false,
          name,
          description,
          {"timeout", vulkan::kDeviceFlag, vulkan::kVkd3dFlag},
          [mode, discard](const std::string& n, const TargetOptions& options)
              -> absl::StatusOr<std::unique_ptr<Target>> {
            // A library that does not open is a bad --vkd3d, said here.
            absl::StatusOr<const vulkan::Vkd3dLibrary*> vkd3d =
                vulkan::LoadVkd3d(options.Flag(vulkan::kVkd3dFlag));
            if (!vkd3d.ok()) return vkd3d.status();
            IsolationOptions isolation = IsolationFor(options);
            isolation.runs_pixel = true;  // it draws (vk_draw.h)
            return Isolate(
                n,
                [options, mode, discard] {
                  return vulkan::CreateVulkanTarget(options, mode, discard);
                },
                isolation, vulkan::VulkanDescription(n, **vkd3d));
          },
          // vkd3d-shader 1.2 has no umad (docs/findings.md #8); it drops
          // umul, and imul with two destinations (#3: 1.6 too), which is
          // how generated cases write imul. Each would be #3 again.
          {isa::Op::kUMad, isa::Op::kUMul, isa::Op::kIMul},
          // Its UAV fences without _t are execution barriers (#27).
          {isa::kSyncUavGroup, isa::kSyncUavGlobal,
           isa::kSyncUavGroup | isa::kSyncTgsm,
           isa::kSyncUavGlobal | isa::kSyncTgsm},
          /*unguarded_tgsm=*/true};
}

// Wine's Direct3D 11 (docs/wine-targets.md): the Windows program runs out
// of process already, so no fork server: a hang or crash of it is an
// outcome, and the next case starts it again.
TargetInfo Wine(const char* name, const char* description,
                wine::Renderer renderer) {
  return {name,
          false,
          name,
          description,
          {"timeout"},
          [renderer](const std::string&, const TargetOptions& options) {
            return wine::CreateWineTarget(options, renderer);
          },
          // wined3d rejects umad ("Unrecognized opcode 0x52"); its GLSL
          // drops umul and two-destination imul (findings #18), as does the
          // vkd3d-shader 1.6 of its Vulkan renderer (#3).
          {isa::Op::kUMad, isa::Op::kUMul, isa::Op::kIMul},
          {},
          // wined3d's GLSL indexes shared arrays unguarded (#15, #19); its
          // Vulkan renderer compiles with vkd3d-shader (#5).
          /*unguarded_tgsm=*/true};
}

struct Table {
  std::mutex mu;
  std::vector<TargetInfo> rows;
};

std::vector<TargetInfo> BuiltIn() {
  std::vector<TargetInfo> rows;
  rows.push_back({"fast",
                  false,
                  "fast",
                  "the optimized CPU executor (injectable bugs: --inject=list)",
                  {fast::kInjectFlag, "threads", "deterministic"},
                  [](const std::string&, const TargetOptions& o) {
                    return fast::CreateFastTarget(o);
                  }});
  rows.push_back(
      Vulkan("vulkan",
             "DXBC -> vkd3d-shader -> SPIR-V -> a Vulkan driver (lavapipe by "
             "default), buffer UAVs as texel buffers; in a child process",
             vulkan::BufferUavMode::kTexel));
  rows.push_back(Vulkan("vulkan-ssbo",
                        "the same, buffer UAVs as storage buffers",
                        vulkan::BufferUavMode::kSsbo));
  rows.push_back(Vulkan(
      "vulkan-demote",
      "the same as vulkan, discard as OpDemoteToHelperInvocationEXT (vkd3d's "
      "demote extension) rather than OpKill",
      vulkan::BufferUavMode::kTexel, vulkan::DiscardMode::kDemote));
  rows.push_back(Wine("wine-d3d11-gl",
                      "Direct3D 11 on Wine, wined3d's GL renderer (its own "
                      "DXBC -> GLSL translator); under Xvfb",
                      wine::Renderer::kGl));
  rows.push_back(Wine("wine-d3d11-vk",
                      "Direct3D 11 on Wine, wined3d's Vulkan renderer (the "
                      "vkd3d-shader Wine bundles); under Xvfb",
                      wine::Renderer::kVulkan));
  rows.push_back(
      {std::string(external::kPrefix),
       true,
       absl::StrCat(external::kPrefix, "PATH.so[:OPTIONS]"),
       "your own executor, a shared library (docs/external-targets.md); in a "
       "child process",
       {"timeout"},
       [](const std::string& n, const TargetOptions& o) {
         return external::CreateExternalTarget(n, o);
       }});
  return rows;
}

Table& Rows() {
  static Table* const table = [] {
    auto* t = new Table;
    t->rows = BuiltIn();
    return t;
  }();
  return *table;
}

bool Matches(const TargetInfo& row, const std::string& name) {
  return row.prefix ? absl::StartsWith(name, row.name) : row.name == name;
}

bool Takes(const TargetInfo& row, const char* flag) {
  return std::find(row.flags.begin(), row.flags.end(), flag) != row.flags.end();
}

}  // namespace

std::vector<TargetInfo> AllTargets() {
  Table& t = Rows();
  std::lock_guard<std::mutex> lock(t.mu);
  return t.rows;
}

void RegisterTarget(TargetInfo row) {
  Table& t = Rows();
  std::lock_guard<std::mutex> lock(t.mu);
  for (TargetInfo& r : t.rows) {
    if (r.name == row.name) {
      r = std::move(row);
      return;
    }
  }
  t.rows.push_back(std::move(row));
}

std::optional<TargetInfo> FindTarget(const std::string& name) {
  Table& t = Rows();
  std::lock_guard<std::mutex> lock(t.mu);
  for (const TargetInfo& r : t.rows) {
    if (Matches(r, name)) return r;
  }
  return std::nullopt;
}

std::vector<std::string> TargetNames() {
  std::vector<std::string> names;
  for (const TargetInfo& r : AllTargets()) names.push_back(r.usage);
  return names;
}

absl::Status CheckOptions(const TargetInfo& row, const TargetOptions& options) {
  for (const auto& [flag, value] : options.flags) {
    if (value.empty() || Takes(row, flag.c_str())) continue;
    std::vector<std::string> takers;
    for (const TargetInfo& r : AllTargets()) {
      if (Takes(r, flag.c_str())) takers.push_back(r.usage);
    }
    return absl::InvalidArgumentError(absl::StrCat(
        "--", absl::StrReplaceAll(flag, {{"_", "-"}}), " applies to ",
        takers.empty() ? std::string("no target")
                       : absl::StrCat("--target=", absl::StrJoin(takers, ", ")),
        " only, not '", row.usage, "'"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<Target>> CreateTarget(
    const std::string& name, const TargetOptions& options) {
  const std::optional<TargetInfo> row = FindTarget(name);
  if (!row) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown target '", name,
                     "' (known: ", absl::StrJoin(TargetNames(), ", "), ")"));
  }
  if (absl::Status s = CheckOptions(*row, options); !s.ok()) return s;
  return row->create(name, options);
}

}  // namespace atomfuzz::targets
