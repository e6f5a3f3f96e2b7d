// atomfuzz run: one case on one target, outcome printed; the oracle's
// verdict on it follows on stderr, so a saved finding shows its divergence
// again (exit 1).
#include <cstdio>

#include "absl/flags/flag.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "cli/load_case.h"
#include "cli/verdict_text.h"
#include "fuzz/differential.h"
#include "fuzz/runner.h"
#include "isa/outcome_format.h"
#include "oracle/judge.h"

namespace atomfuzz::cli {

int RunRun(const std::vector<std::string>& files) {
  int stop = kExitOk;
  std::unique_ptr<targets::Target> target = TargetFromFlags("run", stop);
  if (target == nullptr) return stop;
  if (files.size() != 1) {
    std::fprintf(stderr, "atomfuzz run: expected exactly one FILE\n");
    return kExitBadInput;
  }
  isa::Case c;
  if (LoadCase(files[0], /*validate=*/true, c) != LoadResult::kOk) {
    return kExitBadInput;
  }
  const fuzz::RunResult r = fuzz::RunOne(c, *target);
  if (r.outcome) {
    const bool trace = absl::GetFlag(FLAGS_trace);
    const std::string text =
        absl::GetFlag(FLAGS_json)
            ? isa::OutcomeJson(*r.outcome, trace)
            : isa::OutcomeText(*r.outcome, c.shader, trace);
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
  }
  return ReportRun(stderr, "verdict", files[0], r);
}

}  // namespace atomfuzz::cli
