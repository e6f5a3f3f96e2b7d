// Files that are either absent or complete: written to a temp file in the
// same directory, then renamed over the destination (rename is atomic within
// a file system), so a killed process never leaves half a file behind.
#ifndef ATOMFUZZ_FUZZ_ATOMIC_FILE_H_
#define ATOMFUZZ_FUZZ_ATOMIC_FILE_H_

#include <cstddef>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace atomfuzz::fuzz {

// `sync`: fsync before the rename, so the file also survives a power loss
// (a killed process loses nothing either way). Errors: Internal, with path
// and strerror.
absl::Status WriteFileAtomically(const std::string& path,
                                 absl::string_view bytes, bool sync = true);

// Past this a file is no input atomfuzz reads (a case is kilobytes; its
// largest legal UAVs as text are tens of megabytes).
inline constexpr size_t kMaxInputBytes = size_t{256} << 20;

// The whole file, which must be a regular file: a FIFO, a device such as
// /dev/zero or a directory is FailedPrecondition, so that no input hangs a
// command or fills its memory (opened non-blocking; a symlink loop fails
// to open). Past `max_bytes`: ResourceExhausted. NotFound if it does not
// exist, Internal on other errors; each message names the path.
absl::StatusOr<std::string> ReadWholeFile(const std::string& path,
                                          size_t max_bytes = kMaxInputBytes);

// OK if no symbolic link lies anywhere under `dir` (not followed while
// looking): a campaign directory whose reduced.case or findings/<id>
// points elsewhere would make atomfuzz read a secret into an error message
// or write hundreds of files outside it. InvalidArgument naming the first
// link found. `dir` itself may be a link (the user gave it).
absl::Status RefuseSymlinksUnder(const std::string& dir);

// All of `bytes` to `fd`, retrying short writes and EINTR; false (errno
// set) on failure.
bool WriteAll(int fd, absl::string_view bytes);

// A name unique among all processes and calls: "<pid>-<ns>-<counter>", for
// temp files and per-process files.
std::string UniqueSuffix();

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_ATOMIC_FILE_H_
