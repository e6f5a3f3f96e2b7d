// Runs a case on a target chosen by name: `oracle` (the reference
// interpreter) or any target of targets/registry.h. Only fuzz/ (and cli over
// it) puts the oracle and the targets side by side.
#ifndef ATOMFUZZ_FUZZ_RUNNER_H_
#define ATOMFUZZ_FUZZ_RUNNER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "isa/case_file.h"
#include "isa/outcome.h"
#include "oracle/schedule.h"
#include "targets/registry.h"
#include "targets/target.h"

namespace atomfuzz::fuzz {

struct RunOptions {
  std::string target = "oracle";
  oracle::Schedule schedule;  // for the oracle
  targets::TargetOptions target_options;
};

// Every target --target may name: the oracle's row, then the registry's
// (targets/registry.h).
targets::TargetInfo OracleTargetInfo();
std::vector<targets::TargetInfo> AllTargets();
std::vector<std::string>
TargetNames();  // oracle, fast, ... (as --target spells them)
// InvalidArgument for an unknown target or option.
absl::StatusOr<std::unique_ptr<targets::Target>> MakeTarget(
    const RunOptions& o);
// Reduction and generalisation make endless loops (a dropped breakc); a
// smaller step budget than a campaign's ends them quickly. Originals must
// fit in it (MakeSameBucket checks it by running them with it).
inline constexpr uint64_t kReproducibleStepBudget = 1u << 18;
// `options` made reproducible, as reduction and generalisation run a
// target: deterministic, one thread, trace on, kReproducibleStepBudget.
RunOptions ReproducibleOptions(const RunOptions& options);
// One-off convenience: MakeTarget then Run.
absl::StatusOr<isa::Outcome> RunCase(const isa::Case& c, const RunOptions& o);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_RUNNER_H_
