// Runs a target in a child process (a fork server), so that a crash, a hang
// or an out-of-memory of the executor becomes an Outcome instead of taking
// the caller down: kCrashed ("killed by signal 11 (SIGSEGV)", "exit status
// 3", "out of memory ...") or kTimedOut. The child is created by fork() and
// builds the wrapped target itself with `factory`, so devices and libraries
// exist only in the child. After a death the next Run starts a new child.
//
// Fork from a single-threaded process (the CLI, a campaign worker): the
// child of a multi-threaded one may inherit a held lock.
#ifndef ATOMFUZZ_TARGETS_ISOLATION_ISOLATED_TARGET_H_
#define ATOMFUZZ_TARGETS_ISOLATION_ISOLATED_TARGET_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "targets/target.h"

namespace atomfuzz::targets {

struct IsolationOptions {
  double timeout_seconds = 10;  // per Run, and for the child to start
  // RLIMIT_AS of the child, in bytes; 0 leaves the limit alone.
  uint64_t memory_limit_bytes = uint64_t{4} << 30;
  size_t max_reply_bytes = size_t{512} << 20;
  // The child's target runs ps_5_0 cases too (Target::RunsStage): the
  // parent cannot ask it.
  bool runs_pixel = false;
  // No child: the factory's target runs in this process
  // (TargetOptions::in_process, for fuzzing engines).
  bool in_process = false;
};

// A target's isolation as its options ask: timeout_seconds, memory_limit_mb,
// in_process.
IsolationOptions IsolationFor(const TargetOptions& options);

using TargetFactory = std::function<absl::StatusOr<std::unique_ptr<Target>>()>;

// Starts the child once, so that a factory error (a missing library, a bad
// option) is returned here, with the factory's own status code.
// `description` is what Describe() says (the child's target is out of
// reach); "" says the name. With options.in_process, the factory's own
// target, in this process.
absl::StatusOr<std::unique_ptr<Target>> Isolate(std::string name,
                                                TargetFactory factory,
                                                IsolationOptions options,
                                                std::string description = "");

// The exit status of a child whose allocation failed (operator new's handler).
inline constexpr int kOutOfMemoryExit = 86;

}  // namespace atomfuzz::targets

#endif  // ATOMFUZZ_TARGETS_ISOLATION_ISOLATED_TARGET_H_
