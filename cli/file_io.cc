#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>

#include "absl/flags/flag.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "fuzz/atomic_file.h"

namespace atomfuzz::cli {

bool ReadFile(const std::string& path, std::string& out) {
  // One reader for every input (fuzz/atomic_file.h): regular files only,
  // bounded, never blocking on a FIFO.
  absl::StatusOr<std::string> bytes = fuzz::ReadWholeFile(path);
  if (!bytes.ok()) {
    std::fprintf(stderr, "%s\n", std::string(bytes.status().message()).c_str());
    return false;
  }
  out = *std::move(bytes);
  return true;
}

namespace {

// Into a character device or FIFO (`-o /dev/null`, a pipe): written
// through, never replaced (a rename would put a file where the device
// node was). A FIFO with no reader is an error, not a wait.
bool WriteThrough(const std::string& path, absl::string_view text) {
  const int fd =
      ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    std::fprintf(
        stderr, "%s: cannot open for writing: %s\n", path.c_str(),
        errno == ENXIO ? "a FIFO with no reader" : std::strerror(errno));
    return false;
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  const bool ok = fuzz::WriteAll(fd, text);
  if (!ok)
    std::fprintf(stderr, "%s: cannot write: %s\n", path.c_str(),
                 std::strerror(errno));
  return ::close(fd) == 0 && ok;
}

// The file a chain of symbolic links ends at (it need not exist), or ""
// after saying why (a loop, a chain too long, an unreadable link).
std::string LinkTarget(const std::string& link) {
  std::string path = link;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st;
    if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
    char buf[PATH_MAX];
    const ssize_t n = ::readlink(path.c_str(), buf, sizeof(buf) - 1);
    if (n < 0) {
      std::fprintf(stderr, "%s: cannot read the symbolic link: %s\n",
                   path.c_str(), std::strerror(errno));
      return "";
    }
    std::string next(buf, static_cast<size_t>(n));
    const size_t slash = path.rfind('/');
    if (next.empty() || next[0] != '/') {
      next =
          slash == std::string::npos ? next : path.substr(0, slash + 1) + next;
    }
    path = next;
  }
  std::fprintf(stderr,
               "%s: expected a chain of symbolic links to end, found "
               "a loop or more than 40\n",
               link.c_str());
  return "";
}

}  // namespace

bool WriteFileAtomically(const std::string& path, absl::string_view text) {
  struct stat link, target;
  const bool exists = ::lstat(path.c_str(), &link) == 0;
  const bool resolves = ::stat(path.c_str(), &target) == 0;
  if (resolves && (S_ISCHR(target.st_mode) || S_ISFIFO(target.st_mode)))
    return WriteThrough(path, text);  // also /dev/stdout, a symlink
  if (exists && S_ISLNK(link.st_mode)) {
    // Renaming over it would replace the link, not what it points to.
    if (!absl::GetFlag(FLAGS_follow_symlinks)) {
      std::fprintf(stderr,
                   "%s: refusing to replace a symbolic link; give the path it "
                   "points to, or --follow-symlinks\n",
                   path.c_str());
      return false;
    }
    const std::string end = LinkTarget(path);
    if (end.empty()) return false;
    return WriteFileAtomically(end, text);
  }
  if (resolves && !S_ISREG(target.st_mode)) {
    std::fprintf(stderr, "%s: expected a regular file to write, found %s\n",
                 path.c_str(),
                 S_ISDIR(target.st_mode) ? "a directory" : "a special file");
    return false;
  }
  // One implementation for the CLI and the finding store (fuzz/atomic_file).
  const absl::Status s = fuzz::WriteFileAtomically(path, text);
  if (!s.ok()) std::fprintf(stderr, "%s\n", std::string(s.message()).c_str());
  return s.ok();
}

int WriteOutput(absl::string_view text) {
  const std::string out = absl::GetFlag(FLAGS_out);
  if (out.empty() || out == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return kExitOk;
  }
  return WriteFileAtomically(out, text) ? kExitOk : kExitBadInput;
}

}  // namespace atomfuzz::cli
