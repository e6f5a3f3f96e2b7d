// atomfuzz validate: syntax errors exit 2, rule violations exit 1.
#include <cstdio>

#include "absl/flags/flag.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "cli/load_case.h"

namespace atomfuzz::cli {

int RunValidate(const std::vector<std::string>& files) {
  if (files.empty()) {
    std::fprintf(stderr, "atomfuzz validate: expected at least one FILE\n");
    return kExitBadInput;
  }
  int status = kExitOk, valid = 0;
  for (const std::string& path : files) {
    isa::Case c;
    switch (LoadCase(path, /*validate=*/true, c)) {
      case LoadResult::kOk: ++valid; break;
      case LoadResult::kInvalid:
        if (status == kExitOk) status = kExitCheckFailed;
        break;
      default: status = kExitBadInput; break;
    }
  }
  if (!absl::GetFlag(FLAGS_quiet)) {
    std::printf("%d of %zu cases valid\n", valid, files.size());
  }
  return status;
}

}  // namespace atomfuzz::cli
