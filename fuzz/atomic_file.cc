#include "fuzz/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "fuzz/confined_paths.h"

namespace atomfuzz::fuzz {
namespace {

absl::Status Errno(absl::string_view what, const std::string& path) {
  return absl::InternalError(
      absl::StrCat(path, ": cannot ", what, ": ", std::strerror(errno)));
}

}  // namespace

bool WriteAll(int fd, absl::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

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
  // systems; O_EXCL so two writers never share a temp file. The directory
  // is reached as confined_paths.h says: inside a campaign directory, not
  // through a link.
  const ParentDir dir = OpenParentDir(path);
  if (dir.fd < 0) return Errno("write", path);
  const std::string tmp = absl::StrCat(dir.name, ".tmp.", UniqueSuffix());
  const int fd =
      ::openat(dir.fd, tmp.c_str(),
               O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) return Errno("write", path);
  // A file replaced keeps its mode (fmt --in-place on a script, a 0600
  // file): the rename would otherwise give it the temp file's.
  struct stat old;
  if (::fstatat(dir.fd, dir.name.c_str(), &old, AT_SYMLINK_NOFOLLOW) == 0 &&
      S_ISREG(old.st_mode))
    ::fchmod(fd, old.st_mode & 07777);
  bool ok = WriteAll(fd, bytes);
  if (ok && sync) ok = ::fsync(fd) == 0;
  const int saved = errno;
  ok = (::close(fd) == 0) && ok;
  if (ok && ::renameat(dir.fd, tmp.c_str(), dir.fd, dir.name.c_str()) == 0)
    return absl::OkStatus();
  if (errno == 0) errno = saved;
  absl::Status s = Errno("write", path);
  ::unlinkat(dir.fd, tmp.c_str(), 0);
  return s;
}

absl::StatusOr<std::string> ReadWholeFile(const std::string& path,
                                          size_t max_bytes) {
  // Non-blocking: opening a FIFO with no writer must not wait for one.
  const int fd = OpenFile(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    if (errno == ENOENT)
      return absl::NotFoundError(
          absl::StrCat(path, ": cannot open: no such file"));
    return Errno("open", path);
  }
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    absl::Status s = Errno("stat", path);
    ::close(fd);
    return s;
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    const char* what = S_ISDIR(st.st_mode)    ? "a directory"
                       : S_ISFIFO(st.st_mode) ? "a FIFO"
                       : S_ISCHR(st.st_mode)  ? "a character device"
                       : S_ISBLK(st.st_mode)  ? "a block device"
                       : S_ISSOCK(st.st_mode) ? "a socket"
                                              : "not a regular file";
    return absl::FailedPreconditionError(
        absl::StrCat(path, ": expected a regular file, found ", what));
  }
  std::string out;
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      absl::Status s = Errno("read", path);
      ::close(fd);
      return s;
    }
    if (n == 0) break;
    // A file that grows while it is read (or lies in its size) stops here.
    if (out.size() + static_cast<size_t>(n) > max_bytes) {
      ::close(fd);
      return absl::ResourceExhaustedError(absl::StrCat(
          path, ": larger than ", max_bytes, " bytes, more than any input"));
    }
    out.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return out;
}

absl::Status RefuseSymlinksUnder(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  // Symlinks are not followed by the iterator (the default options).
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end;
       it.increment(ec)) {
    if (it->is_symlink(ec)) {
      return absl::InvalidArgumentError(absl::StrCat(
          it->path().string(),
          ": a symbolic link inside the campaign directory; atomfuzz "
          "follows none there (remove it, or copy what it points to)"));
    }
  }
  return absl::OkStatus();
}

}  // namespace atomfuzz::fuzz
