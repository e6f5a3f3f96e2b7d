#include "fuzz/runner.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "fuzz/oracle_target.h"

namespace atomfuzz::fuzz {

targets::TargetInfo OracleTargetInfo() {
  // Built by MakeTarget, which alone knows the schedule: no factory here.
  return {"oracle",
          false,
          "oracle",
          "the reference interpreter itself (with --schedule=random:SEED, one "
          "legal "
          "interleaving of many)",
          {"schedule"},
          nullptr};
}

std::vector<targets::TargetInfo> AllTargets() {
  std::vector<targets::TargetInfo> rows = {OracleTargetInfo()};
  for (targets::TargetInfo& r : targets::AllTargets())
    rows.push_back(std::move(r));
  return rows;
}

std::vector<std::string> TargetNames() {
  std::vector<std::string> names;
  for (const targets::TargetInfo& r : AllTargets()) names.push_back(r.usage);
  return names;
}

absl::StatusOr<std::unique_ptr<targets::Target>> MakeTarget(
    const RunOptions& o) {
  if (o.target == "oracle") {
    if (absl::Status s =
            targets::CheckOptions(OracleTargetInfo(), o.target_options);
        !s.ok()) {
      return s;
    }
    return CreateOracleTarget(o.schedule, o.target_options);
  }
  if (!targets::FindTarget(o.target)) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown target '", o.target,
                     "' (known: ", absl::StrJoin(TargetNames(), ", "), ")"));
  }
  return targets::CreateTarget(o.target, o.target_options);
}

absl::StatusOr<isa::Outcome> RunCase(const isa::Case& c, const RunOptions& o) {
  auto target = MakeTarget(o);
  if (!target.ok()) return target.status();
  return (*target)->Run(c);
}

RunOptions ReproducibleOptions(const RunOptions& options) {
  RunOptions o = options;
  o.target_options.deterministic = true;
  o.target_options.threads = 1;
  o.target_options.trace = true;
  o.target_options.max_steps_per_wave = kReproducibleStepBudget;
  return o;
}

}  // namespace atomfuzz::fuzz
