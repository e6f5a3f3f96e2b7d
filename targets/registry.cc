#include "targets/registry.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "targets/fast/fast_target.h"

namespace atomfuzz::targets {

std::vector<std::string> TargetNames() { return {"fast"}; }

absl::StatusOr<std::unique_ptr<Target>> CreateTarget(const std::string& name,
                                                     const TargetOptions& options) {
  if (name == "fast") return fast::CreateFastTarget(options);
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown target '", name, "' (known: oracle, ",
      absl::StrJoin(TargetNames(), ", "), ")"));
}

}  // namespace atomfuzz::targets
