// The targets that live in targets/ (the oracle is added by fuzz/, which
// alone may put it beside a target).
#ifndef ATOMFUZZ_TARGETS_REGISTRY_H_
#define ATOMFUZZ_TARGETS_REGISTRY_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "targets/target.h"

namespace atomfuzz::targets {

std::vector<std::string> TargetNames();  // "fast", ...
// InvalidArgument when `options` inject a bug into a target other than
// fast: injected bugs live in the fast executor only, and elsewhere the flag
// would be dropped and the run labelled with a bug nobody injected.
absl::Status CheckInjection(const std::string& name, const TargetOptions& options);

// InvalidArgument for an unknown name or a bad option (e.g. --inject).
absl::StatusOr<std::unique_ptr<Target>> CreateTarget(const std::string& name,
                                                     const TargetOptions& options);

}  // namespace atomfuzz::targets

#endif  // ATOMFUZZ_TARGETS_REGISTRY_H_
