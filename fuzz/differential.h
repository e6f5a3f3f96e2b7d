// The one way a case is run on a target and judged (libFuzzer's RunOne):
// campaigns, the libFuzzer and AFL++ harnesses, the reducer and the
// `run`, `check`, `judge` and `reduce` commands all call RunOne, so one
// outcome is classified one way everywhere; each caller only decides what a
// kind means to it (a campaign counts, a harness aborts, a command exits).
#ifndef ATOMFUZZ_FUZZ_DIFFERENTIAL_H_
#define ATOMFUZZ_FUZZ_DIFFERENTIAL_H_

#include <functional>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "isa/case_file.h"
#include "oracle/judge.h"
#include "targets/target.h"

namespace atomfuzz::fuzz {

enum class RunKind {
  kJudged,        // the target ran and the judge gave a verdict
  kRan,           // the target ran; judging was not asked for
  kNotJudged,     // the target ran; the judge declined a case too large for it
  kTargetFailed,  // the target could not run at all (its set-up, its device):
                  // not the case's fault, and no outcome
  kJudgeFailed,   // the judge failed on an outcome: a bug of ours
};
absl::string_view RunKindName(RunKind k);

struct RunOneOptions {
  bool judge = true;
  oracle::JudgeOptions judge_options;
  oracle::JudgingScratch* scratch = nullptr;  // the judge's room, if kept
  // A timeout is run once more before it counts, as AFL++ confirms its
  // hangs: a stalled machine (a start-up compile, a busy neighbour) times
  // out a case that runs in a blink.
  bool confirm_timeouts = true;
  // Past this many atomics on one word the case is not judged (the order
  // search's cost); 0: no limit.
  uint64_t max_atomics_per_word = 0;
  // Judge the outcome as if the target gave no trace of returned values:
  // only final words and counters, against what the spec allows of any
  // order (what exported reproducers check; `judge --blind`).
  bool blind = false;
  // Called before each run of the target and before judging (a campaign's
  // watchdog heartbeat); may be empty.
  std::function<void(bool judging)> on_phase;
};

struct RunResult {
  RunKind kind = RunKind::kTargetFailed;
  std::optional<isa::Outcome> outcome;  // unless kTargetFailed
  oracle::Verdict verdict;              // with kJudged
  std::string message;                  // why, for the other kinds
};

RunResult RunOne(const isa::Case& c, targets::Target& target,
                 const RunOneOptions& options = {});

// An outcome and its verdict, for callers that want both or an error.
struct Differential {
  isa::Outcome outcome;  // what the target produced
  oracle::Verdict verdict;
};
// RunOne, with every kind but kJudged as an error status.
absl::StatusOr<Differential> RunAndJudge(
    const isa::Case& c, targets::Target& target,
    const oracle::JudgeOptions& judge = {});

// The most atomics the outcome's trace has on one word.
uint64_t MostAtomicsOnOneWord(const isa::Outcome& outcome);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_DIFFERENTIAL_H_
