// atomfuzz fmt: parse, validate, print canonical (with --expect, with the
// expectations the spec allows).
#include <cstdio>

#include "absl/flags/flag.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "cli/load_case.h"
#include "fuzz/allowed_expectations.h"
#include "isa/case_file.h"

namespace atomfuzz::cli {

int RunFmt(const std::vector<std::string>& files) {
  const bool check = absl::GetFlag(FLAGS_check);
  const bool in_place = absl::GetFlag(FLAGS_in_place);
  if (files.empty()) {
    std::fprintf(stderr, "atomfuzz fmt: expected at least one FILE\n");
    return kExitBadInput;
  }
  if (check && in_place) {
    std::fprintf(stderr,
                 "atomfuzz fmt: --check and --in-place exclude each other\n");
    return kExitBadInput;
  }
  int status = kExitOk;
  for (const std::string& path : files) {
    isa::Case c;
    std::string text;
    if (LoadCase(path, absl::GetFlag(FLAGS_validate), c, &text) !=
        LoadResult::kOk) {
      status = kExitBadInput;
      continue;
    }
    if (absl::GetFlag(FLAGS_expect)) {
      if (absl::Status s = fuzz::ExpectWhatTheSpecAllows(c); !s.ok()) {
        std::fprintf(stderr, "%s: %s\n", path.c_str(),
                     std::string(s.message()).c_str());
        status = kExitBadInput;
        continue;
      }
    }
    const std::string canonical = isa::PrintCase(c);
    if (check) {
      if (canonical != text) {
        std::printf(
            "%s: not in canonical form (run: atomfuzz fmt --in-place %s)\n",
            path.c_str(), path.c_str());
        if (status == kExitOk) status = kExitCheckFailed;
      }
    } else if (in_place) {
      if (canonical != text && !WriteFileAtomically(path, canonical)) {
        status = kExitBadInput;
      }
    } else {
      std::fwrite(canonical.data(), 1, canonical.size(), stdout);
    }
  }
  return status;
}

}  // namespace atomfuzz::cli
