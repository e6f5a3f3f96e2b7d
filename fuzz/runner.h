// Runs a case on a target chosen by name: `oracle` (the reference
// interpreter) or any target of targets/registry.h. Only fuzz/ (and cli over
// it) puts the oracle and the targets side by side.
#ifndef ATOMFUZZ_FUZZ_RUNNER_H_
#define ATOMFUZZ_FUZZ_RUNNER_H_

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
// One-off convenience: MakeTarget then Run.
absl::StatusOr<isa::Outcome> RunCase(const isa::Case& c, const RunOptions& o);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_RUNNER_H_
