// atomfuzz coverage: which atomic runs on which memory kind in a set of cases.
#include <cstdio>

#include "cli/command.h"
#include "cli/load_case.h"
#include "isa/coverage.h"

namespace atomfuzz::cli {

int RunCoverage(const std::vector<std::string>& files) {
  if (files.empty()) {
    std::fprintf(stderr, "atomfuzz coverage: expected at least one FILE\n");
    return kExitBadInput;
  }
  isa::CoverageMatrix matrix;
  int status = kExitOk;
  for (const std::string& path : files) {
    isa::Case c;
    if (LoadCase(path, /*validate=*/true, c) != LoadResult::kOk) {
      status = kExitBadInput;
      continue;
    }
    matrix.Add(c);
  }
  std::printf(
      "%zu cases; atomic instructions per memory kind ('-' = not legal):\n%s",
      files.size(), matrix.Render().c_str());
  return status;
}

}  // namespace atomfuzz::cli
