// Files that are either absent or complete: written to a temp file in the
// same directory, then renamed over the destination (rename is atomic within
// a file system), so a killed process never leaves half a file behind.
#ifndef ATOMFUZZ_FUZZ_ATOMIC_FILE_H_
#define ATOMFUZZ_FUZZ_ATOMIC_FILE_H_

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

// The whole file. NotFound if it does not exist, Internal on other errors.
absl::StatusOr<std::string> ReadWholeFile(const std::string& path);

// A name unique among all processes and calls: "<pid>-<ns>-<counter>", for
// temp files and per-process files.
std::string UniqueSuffix();

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_ATOMIC_FILE_H_
