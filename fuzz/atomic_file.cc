#include "fuzz/atomic_file.h"

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace atomfuzz::fuzz {
namespace {

absl::Status Errno(absl::string_view what, const std::string& path) {
  return absl::InternalError(
      absl::StrCat(path, ": cannot ", what, ": ", std::strerror(errno)));
}

bool WriteAll(int fd, absl::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

}  // namespace

std::string UniqueSuffix() {
  static std::atomic<uint64_t> counter{0};
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  return absl::StrFormat("%d-%d%09d-%d", getpid(), ts.tv_sec, ts.tv_nsec,
                         counter++);
}

absl::Status WriteFileAtomically(const std::string& path,
                                 absl::string_view bytes, bool sync) {
  // Same directory as the destination, so the rename cannot cross file
  // systems; O_EXCL so two writers never share a temp file.
  const std::string tmp = absl::StrCat(path, ".tmp.", UniqueSuffix());
  const int fd =
      ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return Errno("write", path);
  bool ok = WriteAll(fd, bytes);
  if (ok && sync) ok = ::fsync(fd) == 0;
  const int saved = errno;
  ok = (::close(fd) == 0) && ok;
  if (ok && std::rename(tmp.c_str(), path.c_str()) == 0)
    return absl::OkStatus();
  if (errno == 0) errno = saved;
  absl::Status s = Errno("write", path);
  std::remove(tmp.c_str());
  return s;
}

absl::StatusOr<std::string> ReadWholeFile(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    if (errno == ENOENT)
      return absl::NotFoundError(absl::StrCat(path, ": no such file"));
    return Errno("open", path);
  }
  std::string out;
  char buf[1 << 14];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) return Errno("read", path);
  return out;
}

}  // namespace atomfuzz::fuzz
