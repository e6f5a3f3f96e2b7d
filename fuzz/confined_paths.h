// Files under a campaign directory are reached without following any
// symbolic link and without leaving the directory, however the directory
// changes while atomfuzz runs: each open resolves beneath the directory's
// own descriptor (openat2 with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS, or,
// where the kernel lacks openat2, a walk of O_NOFOLLOW opens). The walk
// that refuses a linked directory before a campaign starts
// (RefuseSymlinksUnder) then has no window for a link made after it.
// Paths outside every confined directory are opened as the system does.
#ifndef ATOMFUZZ_FUZZ_CONFINED_PATHS_H_
#define ATOMFUZZ_FUZZ_CONFINED_PATHS_H_

#include <sys/types.h>

#include <string>

#include "absl/status/status.h"

namespace atomfuzz::fuzz {

// From now on, in this process and its children, paths beneath `dir` are
// confined to it (`dir` itself may be a link: the user gave it).
// InvalidArgument if it cannot be opened as a directory.
absl::Status ConfineFilesUnder(const std::string& dir);
// Forgets every confined directory (tests).
void LiftConfinement();

// A directory's descriptor (O_PATH) and the last component of `path`: the
// place to create, rename or open `path` in. Confined paths resolve their
// directory beneath their root; -1 with errno set on failure (ELOOP,
// EXDEV or ENOTDIR where a link or `..` lies in the way).
struct ParentDir {
  int fd = -1;
  std::string name;
  ParentDir() = default;
  ParentDir(ParentDir&& o) noexcept : fd(o.fd), name(std::move(o.name)) {
    o.fd = -1;
  }
  ParentDir& operator=(ParentDir&&) = delete;
  ~ParentDir();
};
ParentDir OpenParentDir(const std::string& path);

// open(2) of `path`, never following a link in a confined path (the last
// component included: O_NOFOLLOW is added there).
int OpenFile(const std::string& path, int flags, mode_t mode = 0);
// mkdir -p, each component created or opened without following links in
// a confined path. Errors name the path.
absl::Status MakeDirectories(const std::string& path);
// unlink(2) of a file, its directory resolved as OpenParentDir does.
int RemoveFile(const std::string& path);
// rename(2), both ends resolved as OpenParentDir does.
int RenamePath(const std::string& from, const std::string& to);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_CONFINED_PATHS_H_
