// atomfuzz judge: run each case on a target and judge its outcome. One
// verdict line per case; exit 1 on any divergence.
#include <cstdio>

#include "absl/flags/flag.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "cli/load_case.h"
#include "cli/verdict_text.h"
#include "fuzz/differential.h"

namespace atomfuzz::cli {

int RunJudge(const std::vector<std::string>& files) {
  int stop = kExitOk;
  std::unique_ptr<targets::Target> target = TargetFromFlags("judge", stop);
  if (target == nullptr) return stop;
  if (files.empty()) {
    std::fprintf(stderr, "atomfuzz judge: expected at least one FILE\n");
    return kExitBadInput;
  }
  int status = kExitOk;
  int counts[3] = {0, 0, 0};
  for (const std::string& path : files) {
    isa::Case c;
    if (LoadCase(path, /*validate=*/true, c) != LoadResult::kOk) {
      status = kExitBadInput;
      continue;
    }
    const fuzz::RunResult r = fuzz::RunOne(c, *target);
    // Declined cases count as unknown; a failed target or judge counts in
    // none, and outweighs a divergence in the exit code.
    if (r.kind == fuzz::RunKind::kJudged) {
      ++counts[static_cast<int>(r.verdict.kind)];
    } else if (r.kind == fuzz::RunKind::kNotJudged) {
      ++counts[static_cast<int>(oracle::Verdict::Kind::kUnknown)];
    }
    const bool quiet = absl::GetFlag(FLAGS_quiet);
    if (quiet && r.kind == fuzz::RunKind::kJudged &&
        r.verdict.kind == oracle::Verdict::Kind::kAllowed) {
      continue;
    }
    const int exit = ReportRun(stdout, path, path, r);
    if (exit == kExitToolFailed && status != kExitBadInput)
      status = kExitToolFailed;
    if (exit == kExitCheckFailed && status == kExitOk)
      status = kExitCheckFailed;
  }
  if (!absl::GetFlag(FLAGS_quiet)) {
    std::printf(
        "%d allowed, %d divergent, %d unknown (target %s, schedule %s)\n",
        counts[0], counts[1], counts[2], std::string(target->name()).c_str(),
        absl::GetFlag(FLAGS_schedule).c_str());
  }
  return status;
}

}  // namespace atomfuzz::cli
