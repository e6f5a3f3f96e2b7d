#include "cli/divergent_case.h"

#include <cstdio>

#include "absl/strings/str_cat.h"
#include "cli/command.h"
#include "cli/load_case.h"

namespace atomfuzz::cli {

std::optional<DivergentCase> LoadDivergentCase(
    absl::string_view command, absl::string_view verb,
    const std::vector<std::string>& files, const fuzz::RunOptions& run,
    int& exit_code) {
  exit_code = kExitBadInput;
  if (files.size() != 1) {
    std::fprintf(stderr, "atomfuzz %s: expected one FILE, found %zu\n",
                 std::string(command).c_str(), files.size());
    return std::nullopt;
  }
  isa::Case c;
  if (LoadCase(files[0], /*validate=*/true, c) != LoadResult::kOk)
    return std::nullopt;
  absl::StatusOr<fuzz::SameBucket> bucket = fuzz::MakeSameBucket(c, run);
  if (!bucket.ok()) {
    const bool no_divergence = absl::IsFailedPrecondition(bucket.status());
    std::fprintf(
        stderr, "%s: %s%s\n", files[0].c_str(),
        std::string(bucket.status().message()).c_str(),
        no_divergence ? absl::StrCat(" (nothing to ", verb, ")").c_str() : "");
    // Internal: the target or the judge failed (fuzz::RunAndJudge).
    exit_code = no_divergence                       ? kExitCheckFailed
                : absl::IsInternal(bucket.status()) ? kExitToolFailed
                                                    : kExitBadInput;
    return std::nullopt;
  }
  return DivergentCase{std::move(c), *std::move(bucket)};
}

}  // namespace atomfuzz::cli
