#include "targets/registry.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/match.h"
#include "targets/external/external_target.h"
#include "targets/fast/fast_target.h"

namespace atomfuzz::targets {

std::vector<std::string> TargetNames() { return {"fast"}; }

absl::StatusOr<std::unique_ptr<Target>> CreateTarget(const std::string& name,
                                                     const TargetOptions& options) {
  if (name == "fast") return fast::CreateFastTarget(options);
  if (absl::StartsWith(name, external::kPrefix)) {
    return external::CreateExternalTarget(name, options);
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown target '", name, "' (known: oracle, ",
      absl::StrJoin(TargetNames(), ", "), ", ext:PATH.so[:OPTIONS])"));
}

}  // namespace atomfuzz::targets
