#include "targets/isolation/frame_io.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>

namespace atomfuzz::targets {
namespace {

// Waits for `events` on fd; false when the deadline passes first.
bool WaitFor(int fd, short events, Deadline deadline) {
  for (;;) {
    int ms = -1;
    if (deadline != NoDeadline()) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return false;
      ms = static_cast<int>(std::min<int64_t>(left.count() + 1, 1 << 30));
    }
    pollfd p{fd, events, 0};
    const int n = poll(&p, 1, ms);
    if (n > 0) return true;  // readable, writable, or an error: the call says
    if (n < 0 && errno != EINTR) return true;
  }
}

// Sends (`out` given) or receives (`in` given) all `size` bytes.
FrameResult Transfer(int fd, const char* out, char* in, size_t size,
                     Deadline deadline) {
  for (size_t done = 0; done < size;) {
    if (!WaitFor(fd, out ? POLLOUT : POLLIN, deadline))
      return FrameResult::kTimedOut;
    // MSG_NOSIGNAL: a dead child is an EPIPE here, not a SIGPIPE.
    const ssize_t n =
        out ? send(fd, out + done, size - done, MSG_NOSIGNAL | MSG_DONTWAIT)
            : recv(fd, in + done, size - done, MSG_DONTWAIT);
    if (n == 0 && !out) return FrameResult::kClosed;  // the peer is gone
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) continue;
      return FrameResult::kClosed;
    }
    done += static_cast<size_t>(n);
  }
  return FrameResult::kOk;
}

FrameResult WriteAll(int fd, const char* data, size_t size, Deadline deadline) {
  return Transfer(fd, data, nullptr, size, deadline);
}

FrameResult ReadAll(int fd, char* data, size_t size, Deadline deadline) {
  return Transfer(fd, nullptr, data, size, deadline);
}

}  // namespace

FrameResult WriteFrame(int fd, absl::string_view bytes, Deadline deadline) {
  if (bytes.size() > UINT32_MAX) return FrameResult::kTooLarge;
  const uint32_t n = static_cast<uint32_t>(bytes.size());
  const char header[4] = {static_cast<char>(n), static_cast<char>(n >> 8),
                          static_cast<char>(n >> 16),
                          static_cast<char>(n >> 24)};
  FrameResult r = WriteAll(fd, header, sizeof header, deadline);
  if (r != FrameResult::kOk) return r;
  return WriteAll(fd, bytes.data(), bytes.size(), deadline);
}

FrameResult ReadFrame(int fd, size_t max_bytes, Deadline deadline,
                      std::string& out) {
  unsigned char header[4];
  FrameResult r =
      ReadAll(fd, reinterpret_cast<char*>(header), sizeof header, deadline);
  if (r != FrameResult::kOk) return r;
  const uint32_t n = uint32_t{header[0]} | uint32_t{header[1]} << 8 |
                     uint32_t{header[2]} << 16 | uint32_t{header[3]} << 24;
  if (n > max_bytes) return FrameResult::kTooLarge;
  out.resize(n);
  return ReadAll(fd, out.data(), n, deadline);
}

}  // namespace atomfuzz::targets
