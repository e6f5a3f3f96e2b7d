// Length-prefixed frames over a stream socket, with a deadline, for the fork
// server of an isolated target: u32 little-endian length, then the bytes.
#ifndef ATOMFUZZ_TARGETS_ISOLATION_FRAME_IO_H_
#define ATOMFUZZ_TARGETS_ISOLATION_FRAME_IO_H_

#include <chrono>
#include <cstddef>
#include <string>

#include "absl/strings/string_view.h"

namespace atomfuzz::targets {

using Deadline = std::chrono::steady_clock::time_point;
inline Deadline NoDeadline() { return Deadline::max(); }

enum class FrameResult {
  kOk,
  kClosed,    // the peer is gone (EOF, EPIPE, reset) or a socket error
  kTimedOut,  // the deadline passed first
  kTooLarge,  // the peer announced more than `max_bytes`
};

// The fd may be blocking or not; both wait with poll() until the deadline.
FrameResult WriteFrame(int fd, absl::string_view bytes, Deadline deadline);
FrameResult ReadFrame(int fd, size_t max_bytes, Deadline deadline,
                      std::string& out);

}  // namespace atomfuzz::targets

#endif  // ATOMFUZZ_TARGETS_ISOLATION_FRAME_IO_H_
