// What an isolated child leaves behind and how soon its death is seen:
//   - a child that dies while a process it spawned still holds the socket
//     gives no EOF, so the parent waits on its pidfd too (Linux 5.3+) and
//     sees the death at once, not at the deadline;
//   - a grandchild that called setsid() leaves the child's process group,
//     so kill(-pgid) misses it. The parent is a child subreaper: orphans
//     of the child become its children, and those it did not start itself
//     are killed with the child.
#ifndef ATOMFUZZ_TARGETS_ISOLATION_CHILD_WATCH_H_
#define ATOMFUZZ_TARGETS_ISOLATION_CHILD_WATCH_H_

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <vector>

namespace atomfuzz::targets {

// Makes this process the subreaper of its descendants (idempotent).
void BecomeSubreaper();

// This process's children now, from /proc (empty if /proc is missing).
std::vector<pid_t> ChildrenNow();

// The children this process starts on purpose (isolated targets' children,
// Wine sessions, RunInChild) say so, so that no cleanup takes another
// target's child for an orphan: a campaign worker holds several targets.
void NoteOwnChild(pid_t pid);
void ForgetOwnChild(pid_t pid);

// Kills (SIGKILL) and reaps each child of this process that is not in
// `before` and was not started on purpose: what an isolated child left
// behind (orphans come to this process, the subreaper).
void KillNewChildren(const std::vector<pid_t>& before);

// Sanitizers reserve terabytes of address space for their shadow memory:
// an address-space cap (RLIMIT_AS) kills a sanitized child at start, a
// false crash. There the cap is a watch on the child's resident set.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kAddressSpaceCapWorks = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
inline constexpr bool kAddressSpaceCapWorks = false;
#else
inline constexpr bool kAddressSpaceCapWorks = true;
#endif
#else
inline constexpr bool kAddressSpaceCapWorks = true;
#endif

enum class ChildWait { kReadable, kDied, kTimedOut, kOverMemory };

// Until `fd` is readable, `pid` (a child of this process) has died, or
// the deadline; with `rss_limit_bytes` (0: none), until its resident set
// passes that too (then it is killed). Without pidfds, only the fd and the
// resident set are watched.
ChildWait WaitForReplyOrDeath(int fd, pid_t pid,
                              std::chrono::steady_clock::time_point deadline,
                              uint64_t rss_limit_bytes = 0);

}  // namespace atomfuzz::targets

#endif  // ATOMFUZZ_TARGETS_ISOLATION_CHILD_WATCH_H_
