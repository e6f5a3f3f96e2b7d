#include "fuzz/confined_paths.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace atomfuzz::fuzz {
namespace {

namespace fs = std::filesystem;

struct Root {
  std::string path;  // absolute, lexically normal, no trailing slash
  int fd = -1;
};

std::mutex g_mutex;
std::vector<Root>& Roots() {
  static auto* roots = new std::vector<Root>();
  return *roots;
}

std::string Normal(const std::string& path) {
  std::error_code ec;
  std::string p = fs::absolute(path, ec).lexically_normal().string();
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  return p;
}

// The root `path` lies beneath and the rest of it, or false.
bool Beneath(const std::string& path, int& root_fd, std::string& rest) {
  const std::string p = Normal(path);
  std::lock_guard<std::mutex> lock(g_mutex);
  for (const Root& r : Roots()) {
    if (p == r.path) {
      root_fd = r.fd;
      rest = ".";
      return true;
    }
    if (absl::StartsWith(p, r.path + "/")) {
      root_fd = r.fd;
      rest = p.substr(r.path.size() + 1);
      return true;
    }
  }
  return false;
}

// The directory `part` inside `dir`, neither a link nor ".."; -1 and errno.
int OpenChildDir(int dir, absl::string_view part) {
  if (part == "..") {
    errno = EXDEV;
    return -1;
  }
  return ::openat(dir, std::string(part).c_str(),
                  O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

// A directory beneath `root_fd`, no link followed; -1 and errno.
int OpenDirBeneath(int root_fd, const std::string& rel) {
  open_how how = {};
  how.flags = O_PATH | O_DIRECTORY | O_CLOEXEC;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS;
  const long fd =
      ::syscall(SYS_openat2, root_fd, rel.c_str(), &how, sizeof(how));
  if (fd >= 0 || errno != ENOSYS) return static_cast<int>(fd);
  // No openat2: one component at a time, none of them a link or "..".
  int dir = ::fcntl(root_fd, F_DUPFD_CLOEXEC, 0);
  for (absl::string_view part : absl::StrSplit(rel, '/', absl::SkipEmpty())) {
    if (part == ".") continue;
    const int next = OpenChildDir(dir, part);
    const int saved = errno;
    ::close(dir);
    if (next < 0) {
      errno = saved;
      return -1;
    }
    dir = next;
  }
  return dir;
}

}  // namespace

absl::Status ConfineFilesUnder(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        dir, ": expected a directory to work in: ", std::strerror(errno)));
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  const std::string path = Normal(dir);
  for (Root& r : Roots()) {
    if (r.path != path) continue;
    // Confined already; but a directory removed and made again under the
    // same name is another directory: its descriptor replaces the old.
    struct stat now, before;
    if (::fstat(fd, &now) == 0 && ::fstat(r.fd, &before) == 0 &&
        now.st_dev == before.st_dev && now.st_ino == before.st_ino) {
      ::close(fd);
    } else {
      ::close(r.fd);
      r.fd = fd;
    }
    return absl::OkStatus();
  }
  Roots().push_back({path, fd});
  return absl::OkStatus();
}

void LiftConfinement() {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (const Root& r : Roots()) ::close(r.fd);
  Roots().clear();
}

ParentDir::~ParentDir() {
  if (fd >= 0) ::close(fd);
}

ParentDir OpenParentDir(const std::string& path) {
  ParentDir p;
  const fs::path as_path(path);
  p.name = as_path.filename().string();
  std::string dir = as_path.parent_path().string();
  if (dir.empty()) dir = ".";
  int root_fd = -1;
  std::string rest;
  if (Beneath(dir, root_fd, rest)) {
    p.fd = OpenDirBeneath(root_fd, rest);
  } else {
    p.fd = ::open(dir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  }
  return p;
}

int OpenFile(const std::string& path, int flags, mode_t mode) {
  int root_fd = -1;
  std::string rest;
  if (!Beneath(path, root_fd, rest))
    return ::open(path.c_str(), flags | O_CLOEXEC, mode);
  ParentDir parent = OpenParentDir(path);
  if (parent.fd < 0) return -1;
  return ::openat(parent.fd, parent.name.c_str(),
                  flags | O_NOFOLLOW | O_CLOEXEC, mode);
}

absl::Status MakeDirectories(const std::string& path) {
  int root_fd = -1;
  std::string rest;
  if (!Beneath(path, root_fd, rest)) {
    std::error_code ec;
    fs::create_directories(path, ec);
    if (ec) {
      return absl::InternalError(
          absl::StrCat(path, ": cannot create: ", ec.message()));
    }
    return absl::OkStatus();
  }
  // Component by component beneath the root: mkdirat never follows a link
  // at the last component, and each directory is entered without any.
  int dir = ::fcntl(root_fd, F_DUPFD_CLOEXEC, 0);
  for (absl::string_view part : absl::StrSplit(rest, '/', absl::SkipEmpty())) {
    if (part == ".") continue;
    if (::mkdirat(dir, std::string(part).c_str(), 0755) != 0 &&
        errno != EEXIST) {
      const int saved = errno;
      ::close(dir);
      return absl::InternalError(
          absl::StrCat(path, ": cannot create: ", std::strerror(saved)));
    }
    const int next = OpenChildDir(dir, part);
    const int saved = errno;
    ::close(dir);
    if (next < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(path,
                       ": expected a directory inside the campaign "
                       "directory, not reached through a link: ",
                       std::strerror(saved)));
    }
    dir = next;
  }
  ::close(dir);
  return absl::OkStatus();
}

int RemoveFile(const std::string& path) {
  ParentDir p = OpenParentDir(path);
  if (p.fd < 0) return -1;
  return ::unlinkat(p.fd, p.name.c_str(), 0);
}

int RenamePath(const std::string& from, const std::string& to) {
  ParentDir a = OpenParentDir(from), b = OpenParentDir(to);
  if (a.fd < 0 || b.fd < 0) return -1;
  return ::renameat(a.fd, a.name.c_str(), b.fd, b.name.c_str());
}

}  // namespace atomfuzz::fuzz
