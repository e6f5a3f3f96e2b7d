// atomfuzz judge: run each case on a target and judge its outcome. One
// verdict line per case (with --json, one document); exit 1 on any
// divergence.
#include <cstdio>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "cli/load_case.h"
#include "cli/verdict_text.h"
#include "fuzz/differential.h"
#include "fuzz/result_json.h"
#include "isa/json.h"

namespace atomfuzz::cli {

int RunJudge(const std::vector<std::string>& files) {
  int stop = kExitOk;
  std::unique_ptr<targets::Target> target = TargetFromFlags("judge", stop);
  if (target == nullptr) return stop;
  if (files.empty()) {
    std::fprintf(stderr, "atomfuzz judge: expected at least one FILE\n");
    return kExitBadInput;
  }
  const bool json = absl::GetFlag(FLAGS_json);
  std::vector<std::string> json_cases;
  int status = kExitOk;
  int counts[3] = {0, 0, 0};
  for (const std::string& path : files) {
    isa::Case c;
    if (LoadCase(path, /*validate=*/true, c) != LoadResult::kOk) {
      status = kExitBadInput;
      if (json) json_cases.push_back(BadInputJson(path));
      continue;
    }
    fuzz::RunOneOptions run;
    run.blind = absl::GetFlag(FLAGS_blind);
    const fuzz::RunResult r = fuzz::RunOne(c, *target, run);
    if (json) {
      json_cases.push_back(absl::StrCat("{\"file\": ", isa::JsonString(path),
                                        ", ", fuzz::RunResultJsonFields(r),
                                        "}"));
      if (r.kind == fuzz::RunKind::kJudged) {
        ++counts[static_cast<int>(r.verdict.kind)];
      } else if (r.kind == fuzz::RunKind::kNotJudged) {
        ++counts[static_cast<int>(oracle::Verdict::Kind::kUnknown)];
      }
      status = WorseExit(status, ExitCodeOf(r));
      continue;
    }
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
    status = WorseExit(status, ReportRun(stdout, path, path, r));
  }
  if (json) {
    PrintJsonDocument(
        "atomfuzz.judge", *target, json_cases,
        absl::StrCat("\"allowed\": ", counts[0], ", \"divergent\": ", counts[1],
                     ", \"unknown\": ", counts[2]));
  } else if (!absl::GetFlag(FLAGS_quiet)) {
    std::printf(
        "%d allowed, %d divergent, %d unknown (target %s, schedule %s)\n",
        counts[0], counts[1], counts[2], std::string(target->name()).c_str(),
        absl::GetFlag(FLAGS_schedule).c_str());
  }
  return status;
}

}  // namespace atomfuzz::cli
