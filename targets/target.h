// An executor under test: takes a case, returns the shared Outcome (final
// memory, counters, and the atomic trace where it can observe it). Like
// vkd3d's shader_runner_ops, one small interface every backend fills in.
#ifndef ATOMFUZZ_TARGETS_TARGET_H_
#define ATOMFUZZ_TARGETS_TARGET_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "isa/case_file.h"
#include "isa/outcome.h"

namespace atomfuzz::targets {

// The flags that belong to one target (TargetInfo::flags names those its
// row takes), by flag name: {"inject", "return-new"}, {"vk_device", "NV"}.
// Each target parses its own; registry.h's CheckOptions refuses one its row
// does not take. A new target option is a row's flag, not a shared field.
using TargetFlags = std::map<std::string, std::string>;
// The value of flag `name` in `flags`, or "" where it is not given.
inline std::string FlagValue(const TargetFlags& flags,
                             const std::string& name) {
  auto it = flags.find(name);
  return it == flags.end() ? std::string() : it->second;
}

struct TargetOptions {
  bool trace = true;           // record each atomic's returned value
  int threads = 0;             // worker threads; 0 = all cores
  bool deterministic = false;  // one worker, fixed group and lane order
  uint64_t max_steps_per_wave = 1u << 20;  // instructions; endless loops end
  // One thread's budget in the spec's steps (instructions), as the oracle
  // counts them: a target stops a thread sooner only where it must have
  // run over it (the fast target counts loop iterations, each at least one
  // step), so an endless loop ends after its thread's budget, not the
  // whole wave's.
  uint64_t max_steps_per_thread = UINT64_MAX;
  // Targets in a child process (ext:, vulkan): seconds per case before the
  // child is killed (kTimedOut), and its address-space cap in MiB (0 = none).
  double timeout_seconds = 10;
  uint64_t memory_limit_mb = 4096;
  // Those targets in this process instead: a fuzzing engine then sees the
  // executor's coverage and its sanitizers' reports, and a crash or hang of
  // it is the engine's to report (fuzz/engines/harness.h).
  bool in_process = false;
  TargetFlags flags;  // this target's own flags (above)
  std::string Flag(const std::string& name) const {
    return FlagValue(flags, name);
  }
};

class Target {
 public:
  virtual ~Target() = default;
  virtual absl::string_view name() const = 0;
  // What a finding names as its executor: the target and the versions of
  // what it drives ("vulkan: vkd3d-shader 1.2 ..."), by default the name.
  virtual std::string Describe() const { return std::string(name()); }
  // Whether the target runs cases of this stage at all. A case of a stage
  // it does not run is not judged (fuzz::RunOne), rather than a refusal
  // counted as a divergence: the pixel stage is newer than some targets.
  virtual bool RunsStage(isa::Stage stage) const {
    return stage == isa::Stage::kCompute;
  }
  // Errors are the target's own failures to set up; a case it refuses is an
  // Outcome with RunStatus::kRejected and the reason.
  virtual absl::StatusOr<isa::Outcome> Run(const isa::Case& c) = 0;
  // One result per case, in order, each what Run would say of that case
  // alone, so that a finding belongs to one case. Targets that can share
  // work between cases (vulkan: one shader compile for many) override it.
  virtual std::vector<absl::StatusOr<isa::Outcome>> RunBatch(
      absl::Span<const isa::Case> cases) {
    std::vector<absl::StatusOr<isa::Outcome>> out;
    out.reserve(cases.size());
    for (const isa::Case& c : cases) out.push_back(Run(c));
    return out;
  }
};

}  // namespace atomfuzz::targets

#endif  // ATOMFUZZ_TARGETS_TARGET_H_
