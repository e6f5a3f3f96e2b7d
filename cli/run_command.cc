// atomfuzz run: one case on one target, outcome printed; the oracle's
// verdict on it follows on stderr, so a saved finding shows its divergence
// again (exit 1).
#include <cstdio>

#include "absl/flags/flag.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "cli/load_case.h"
#include "cli/verdict_text.h"
#include "fuzz/runner.h"
#include "oracle/judge.h"
#include "isa/outcome_format.h"

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
  auto outcome = target->Run(c);
  if (!outcome.ok()) {
    std::fprintf(stderr, "%s: %s\n", files[0].c_str(),
                 std::string(outcome.status().message()).c_str());
    return kExitBadInput;
  }
  const bool trace = absl::GetFlag(FLAGS_trace);
  const std::string text = absl::GetFlag(FLAGS_json)
                               ? isa::OutcomeJson(*outcome, trace)
                               : isa::OutcomeText(*outcome, c.shader, trace);
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
  absl::StatusOr<oracle::Verdict> verdict = oracle::Judge(c, *outcome);
  if (!verdict.ok()) {
    std::fprintf(stderr, "%s: judge: %s\n", files[0].c_str(),
                 std::string(verdict.status().message()).c_str());
    return kExitBadInput;
  }
  PrintVerdict(stderr, "verdict", *verdict);
  return verdict->kind == oracle::Verdict::Kind::kDivergence ? kExitCheckFailed : kExitOk;
}

}  // namespace atomfuzz::cli
