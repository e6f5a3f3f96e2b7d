// The child side of an isolated target: build the target, then answer
// requests until the parent closes the socket. Never returns.
#ifndef ATOMFUZZ_TARGETS_ISOLATION_FORK_CHILD_H_
#define ATOMFUZZ_TARGETS_ISOLATION_FORK_CHILD_H_

#include <sys/types.h>

#include "targets/isolation/isolated_target.h"

namespace atomfuzz::targets {

// Frame tags, the first byte of every frame.
inline constexpr char kTagReady = 'R';     // child -> parent: target built
inline constexpr char kTagNoTarget = 'F';  // child -> parent: factory failed
inline constexpr char kTagOutcome = 'O';   // child -> parent: wire outcome
inline constexpr char kTagError = 'E';     // child -> parent: u8 code, message
inline constexpr char kTagCase = 'C';      // parent -> child: case text
inline constexpr char kTagBatch = 'B';    // parent -> child: batch_wire request
inline constexpr char kTagResults = 'N';  // child -> parent: batch_wire results
inline constexpr size_t kMaxRequestBytes = size_t{1} << 30;

// `crash_fd`: where a crash's frames go (crash_frames.h); -1 for nowhere.
[[noreturn]] void ServeChild(int fd, pid_t parent, const TargetFactory& factory,
                             const IsolationOptions& options, int crash_fd);

}  // namespace atomfuzz::targets

#endif  // ATOMFUZZ_TARGETS_ISOLATION_FORK_CHILD_H_
