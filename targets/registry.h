// The registration table of targets: one row per executor under test, read
// by the CLI (names, --help), campaigns and harnesses. A new target is one
// row here (or one RegisterTarget call where it lives, as tests do) plus its
// own files. The oracle is a row too, added by fuzz/, which alone may put it
// beside a target (fuzz/runner.h).
#ifndef ATOMFUZZ_TARGETS_REGISTRY_H_
#define ATOMFUZZ_TARGETS_REGISTRY_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "isa/opcode_table.h"
#include "targets/target.h"

namespace atomfuzz::targets {

struct TargetInfo {
  // The name --target takes; with `prefix`, every name that starts with it
  // (ext:PATH.so[:OPTIONS]).
  std::string name;
  bool prefix = false;
  std::string usage;  // how --target spells it: "fast", "ext:PATH.so[:OPTIONS]"
  std::string description;  // one line, for --help
  // The command-line flags (by their names in cli/flags.cc) that mean
  // something to this target beyond the shared ones (trace, budgets): one
  // given for a target that does not take it is refused, not dropped.
  std::vector<std::string> flags;
  // Builds the target named `name` (the whole --target text).
  std::function<absl::StatusOr<std::unique_ptr<Target>>(
      const std::string& name, const TargetOptions& options)>
      create;
  // Instructions the target is known to refuse (a documented finding):
  // campaigns on it neither generate nor mutate into them, so its cases
  // test what it can run instead of being `rejected` by the thousand.
  std::vector<isa::Op> unsupported = {};
  // Sync variants (isa::SyncFlag bits) it is known to run wrongly, for
  // campaigns and harnesses as `unsupported`: vkd3d-shader 1.2 makes every
  // UAV fence an execution barrier, undefined in divergent flow (E-29).
  std::vector<uint8_t> unsupported_syncs = {};
  // A g# access out of bounds reaches memory outside the g# (vkd3d-shader's
  // unguarded Workgroup index, docs/findings.md #5): harnesses do not run
  // cases that may make one, since the damage can surface in a later case,
  // in a frame of its own. Campaigns run them: a crash there is rerun in a
  // fresh child, and its bucket is what the finding is known by.
  bool unguarded_tgsm = false;
};

// Every row: the built-in ones (fast, vulkan, vulkan-ssbo, ext:), then those
// registered, in order.
std::vector<TargetInfo> AllTargets();
// Adds a row, or replaces the row of the same name.
void RegisterTarget(TargetInfo row);
// The row for a --target text (a copy: rows may be registered meanwhile).
std::optional<TargetInfo> FindTarget(const std::string& name);
std::vector<std::string> TargetNames();  // each row's usage: "fast", ...

// InvalidArgument where `options` ask for what the row does not take
// (--inject for a target other than fast, --vk-device for one without a
// Vulkan device): the flag would be dropped and the run labelled with a
// setting nobody applied.
absl::Status CheckOptions(const TargetInfo& row, const TargetOptions& options);

// InvalidArgument for an unknown name or a bad option.
absl::StatusOr<std::unique_ptr<Target>> CreateTarget(
    const std::string& name, const TargetOptions& options);

}  // namespace atomfuzz::targets

#endif  // ATOMFUZZ_TARGETS_REGISTRY_H_
