// A target in a user's shared library (include/atomfuzz/target.h), named
// on the command line as ext:PATH.so or ext:PATH.so:OPTIONS.
#ifndef ATOMFUZZ_TARGETS_EXTERNAL_EXTERNAL_TARGET_H_
#define ATOMFUZZ_TARGETS_EXTERNAL_EXTERNAL_TARGET_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "targets/target.h"

namespace atomfuzz::targets::external {

inline constexpr absl::string_view kPrefix = "ext:";

struct ExternalSpec {
  std::string path;     // handed to dlopen as is
  std::string options;  // handed to atomfuzz_target_create
};
// "ext:PATH[:OPTIONS]" -> {PATH, OPTIONS}; InvalidArgument without a path.
absl::StatusOr<ExternalSpec> ParseExternalName(absl::string_view name);

// Loads the library in this process and creates its handle. Only an
// isolated child should call it: the library's crashes are this process's.
absl::StatusOr<std::unique_ptr<Target>> LoadExternalTarget(
    std::string name, const ExternalSpec& spec, const TargetOptions& options);

// The registry's entry: the library in a child process (Isolate()).
// InvalidArgument for a bad name, a file that does not load, a wrong ABI
// version or a create() that fails; the library's own reason is included.
absl::StatusOr<std::unique_ptr<Target>> CreateExternalTarget(
    const std::string& name, const TargetOptions& options);

}  // namespace atomfuzz::targets::external

#endif  // ATOMFUZZ_TARGETS_EXTERNAL_EXTERNAL_TARGET_H_
