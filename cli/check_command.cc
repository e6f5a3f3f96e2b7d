// atomfuzz check: each case's expectations against a target (the oracle by
// default). One line per mismatch; exit 1 on any.
#include <cstdio>

#include "absl/flags/flag.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "cli/load_case.h"
#include "cli/verdict_text.h"
#include "fuzz/differential.h"
#include "fuzz/runner.h"
#include "isa/expectation_check.h"

namespace atomfuzz::cli {

int RunCheck(const std::vector<std::string>& files) {
  int stop = kExitOk;
  std::unique_ptr<targets::Target> target = TargetFromFlags("check", stop);
  if (target == nullptr) return stop;
  if (files.empty()) {
    std::fprintf(stderr, "atomfuzz check: expected at least one FILE\n");
    return kExitBadInput;
  }
  int status = kExitOk, passed = 0, expectations = 0;
  for (const std::string& path : files) {
    isa::Case c;
    if (LoadCase(path, /*validate=*/true, c) != LoadResult::kOk) {
      status = kExitBadInput;
      continue;
    }
    fuzz::RunOneOptions run;
    run.judge = false;  // the case's own expectations judge it
    const fuzz::RunResult r = fuzz::RunOne(c, *target, run);
    if (r.kind == fuzz::RunKind::kTargetFailed) {
      ReportRun(stdout, path, path, r);
      if (status != kExitBadInput) status = kExitToolFailed;
      continue;
    }
    const std::optional<isa::Outcome>& outcome = r.outcome;
    expectations +=
        static_cast<int>(c.expect_words.size() + c.expect_counters.size() +
                         c.expect_returns.size());
    const auto mismatches = isa::CheckExpectations(c, *outcome);
    if (outcome->status != isa::RunStatus::kOk) {
      std::printf("%s: run %s: %s\n", path.c_str(),
                  std::string(isa::RunStatusName(outcome->status)).c_str(),
                  outcome->message.c_str());
    }
    for (const isa::Mismatch& m : mismatches) {
      std::printf("%s:%d: %s\n", path.c_str(), m.line, m.Render().c_str());
    }
    if (mismatches.empty() && outcome->status == isa::RunStatus::kOk) {
      ++passed;
    } else if (status == kExitOk) {
      status = kExitCheckFailed;
    }
  }
  if (!absl::GetFlag(FLAGS_quiet)) {
    std::printf(
        "%d of %zu cases meet their expectations (%d expectation lines, target "
        "%s, schedule %s)\n",
        passed, files.size(), expectations, std::string(target->name()).c_str(),
        absl::GetFlag(FLAGS_schedule).c_str());
  }
  return status;
}

}  // namespace atomfuzz::cli
