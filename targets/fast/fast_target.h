// The optimized CPU executor as a Target: compile once, run groups as waves
// on a worker pool with hardware atomics.
#ifndef ATOMFUZZ_TARGETS_FAST_FAST_TARGET_H_
#define ATOMFUZZ_TARGETS_FAST_FAST_TARGET_H_

#include <memory>

#include "absl/status/statusor.h"
#include "targets/target.h"

namespace atomfuzz::targets::fast {

// The flag (TargetOptions::flags) naming an injected bug
// (targets/fast/injection.h); a finding's target label carries it.
inline constexpr char kInjectFlag[] = "inject";

// InvalidArgument for an unknown --inject name.
absl::StatusOr<std::unique_ptr<Target>> CreateFastTarget(
    const TargetOptions& options);

}  // namespace atomfuzz::targets::fast

#endif  // ATOMFUZZ_TARGETS_FAST_FAST_TARGET_H_
