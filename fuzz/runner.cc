#include "fuzz/runner.h"

#include "fuzz/oracle_target.h"
#include "targets/registry.h"

namespace atomfuzz::fuzz {

std::vector<std::string> TargetNames() {
  std::vector<std::string> names = {"oracle"};
  for (const std::string& n : targets::TargetNames()) names.push_back(n);
  return names;
}

absl::StatusOr<std::unique_ptr<targets::Target>> MakeTarget(const RunOptions& o) {
  if (o.target == "oracle") {
    if (absl::Status s = targets::CheckInjection(o.target, o.target_options); !s.ok()) return s;
    return CreateOracleTarget(o.schedule, o.target_options);
  }
  return targets::CreateTarget(o.target, o.target_options);
}

absl::StatusOr<isa::Outcome> RunCase(const isa::Case& c, const RunOptions& o) {
  auto target = MakeTarget(o);
  if (!target.ok()) return target.status();
  return (*target)->Run(c);
}

}  // namespace atomfuzz::fuzz
