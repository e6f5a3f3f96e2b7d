// One function run in a short-lived child process, its result brought
// back as bytes: for work that must not touch this process (a vkd3d-shader
// that may crash; a Vulkan driver that would load its threads into a
// process that forks workers later).
#ifndef ATOMFUZZ_TARGETS_ISOLATION_RUN_IN_CHILD_H_
#define ATOMFUZZ_TARGETS_ISOLATION_RUN_IN_CHILD_H_

#include <functional>
#include <string>

#include "absl/status/statusor.h"

namespace atomfuzz::targets {

// What `work` returned in the child. Aborted with "killed by signal N
// (NAME)" when the child dies of a signal; DeadlineExceeded (the child
// killed) past `timeout_seconds` when it is positive; Internal when it
// cannot start or gives no answer.
absl::StatusOr<std::string> RunInChild(const std::function<std::string()>& work,
                                       double timeout_seconds = 0);

}  // namespace atomfuzz::targets

#endif  // ATOMFUZZ_TARGETS_ISOLATION_RUN_IN_CHILD_H_
