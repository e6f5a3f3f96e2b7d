// Where an isolated child crashed: a handler for the fatal signals, set in
// the child, writes the top frames of the crashing thread (library and
// symbol, from glibc's backtrace and dladdr) to a pipe before the child
// dies of the same signal; the parent reads them after the death. A crash
// is then told apart from another by where it happened (ClusterFuzz's
// crash state), not only by its signal.
#ifndef ATOMFUZZ_TARGETS_ISOLATION_CRASH_FRAMES_H_
#define ATOMFUZZ_TARGETS_ISOLATION_CRASH_FRAMES_H_

#include <string>

namespace atomfuzz::targets {

// Frames reported, the crashing one first.
inline constexpr int kCrashFrames = 3;

// In the child: report to `fd` (a pipe's write end) on SIGSEGV, SIGBUS,
// SIGFPE, SIGILL and SIGABRT, on an alternate stack (a stack overflow
// still reports).
void ReportCrashFramesTo(int fd);
// Sets the handlers again: a driver may install its own (LLVM does, when
// lavapipe first compiles) and re-raise past ours. The child calls it
// before each request.
void RearmCrashFrames();

// In the parent, after the child died: what it wrote, as
// "lib:symbol < lib:symbol < lib:symbol" ("" if nothing). Reads without
// blocking.
std::string ReadCrashFrames(int fd);

}  // namespace atomfuzz::targets

#endif  // ATOMFUZZ_TARGETS_ISOLATION_CRASH_FRAMES_H_
