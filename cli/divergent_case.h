// The one divergent FILE that reduce and generalise take: loaded, validated
// and run once on the target to learn its bucket.
#ifndef ATOMFUZZ_CLI_DIVERGENT_CASE_H_
#define ATOMFUZZ_CLI_DIVERGENT_CASE_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "fuzz/reduce/reducer.h"
#include "isa/case_file.h"

namespace atomfuzz::cli {

struct DivergentCase {
  isa::Case c;
  fuzz::SameBucket bucket;
};

// The case of `files` (exactly one) and its bucket on `run`'s target, or
// the exit code to stop with, its reason printed: 2 for bad input, 1 when
// the case does not diverge ("nothing to `verb`"), 3 when the target or
// the judge failed.
std::optional<DivergentCase> LoadDivergentCase(
    absl::string_view command, absl::string_view verb,
    const std::vector<std::string>& files, const fuzz::RunOptions& run,
    int& exit_code);

}  // namespace atomfuzz::cli

#endif  // ATOMFUZZ_CLI_DIVERGENT_CASE_H_
