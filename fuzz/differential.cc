#include "fuzz/differential.h"

#include <algorithm>
#include <array>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "fuzz/trace_addresses.h"

namespace atomfuzz::fuzz {

absl::string_view RunKindName(RunKind k) {
  switch (k) {
    case RunKind::kJudged: return "judged";
    case RunKind::kRan: return "ran";
    case RunKind::kNotJudged: return "not judged";
    case RunKind::kTargetFailed: return "target failed";
    case RunKind::kJudgeFailed: return "judge failed";
  }
  return "?";
}

uint64_t MostAtomicsOnOneWord(const isa::Outcome& o) {
  // A g# word is one per group.
  using Word =
      std::tuple<isa::RegFile, uint32_t, uint32_t, std::array<uint32_t, 3>>;
  absl::flat_hash_map<Word, uint64_t> counts;
  uint64_t most = 0;
  for (const isa::AtomicEvent& e : o.trace) {
    if (e.address != isa::AddressClass::kInBounds) continue;
    const bool tgsm = e.file == isa::RegFile::kTgsm;
    const Word w{e.file, e.slot, e.word,
                 tgsm ? e.group : std::array<uint32_t, 3>{0, 0, 0}};
    most = std::max(most, ++counts[w]);
  }
  return most;
}

RunResult RunOne(const isa::Case& c, targets::Target& target,
                 const RunOneOptions& o) {
  RunResult r;
  if (!target.RunsStage(c.shader.stage)) {
    r.kind = RunKind::kNotJudged;
    r.message = absl::StrCat(target.name(), " does not run ",
                             isa::StagePrefix(c.shader.stage), "_5_0 cases");
    return r;
  }
  if (o.on_phase) o.on_phase(false);
  absl::StatusOr<isa::Outcome> outcome = target.Run(c);
  if (outcome.ok() && outcome->status == isa::RunStatus::kTimedOut &&
      o.confirm_timeouts) {
    // Its own watchdog window for the second run: a real hang is still a
    // timeout, not a lost worker.
    if (o.on_phase) o.on_phase(false);
    outcome = target.Run(c);
  }
  if (!outcome.ok()) {
    r.kind = RunKind::kTargetFailed;
    r.message = std::string(outcome.status().message());
    return r;
  }
  r.outcome = *std::move(outcome);
  // Before anything reads the trace's words (the limit below, coverage,
  // signatures, reports).
  if (r.outcome->status == isa::RunStatus::kOk)
    CompleteTraceAddresses(c, o.judge_options.interpret, *r.outcome);
  if (!o.judge) {
    r.kind = RunKind::kRan;
    return r;
  }
  if (o.blind) {
    r.outcome->has_trace = false;
    r.outcome->trace.clear();
  }
  // (An unfinished run's trace is not searched: the limit is for the order
  // search alone.)
  if (o.max_atomics_per_word != 0 && r.outcome->status == isa::RunStatus::kOk) {
    if (const uint64_t n = MostAtomicsOnOneWord(*r.outcome);
        n > o.max_atomics_per_word) {
      r.kind = RunKind::kNotJudged;
      r.message = absl::StrCat(n, " atomics on one word (limit ",
                               o.max_atomics_per_word, ")");
      return r;
    }
  }
  if (o.on_phase) o.on_phase(true);
  absl::StatusOr<oracle::Verdict> verdict =
      o.scratch != nullptr
          ? oracle::Judge(c, *r.outcome, o.judge_options, *o.scratch)
          : oracle::Judge(c, *r.outcome, o.judge_options);
  if (!verdict.ok()) {
    // A valid case the oracle refuses (too large for it) is no finding; any
    // other failure is a bug of ours.
    const absl::StatusCode code = verdict.status().code();
    const bool declined = code == absl::StatusCode::kInvalidArgument ||
                          code == absl::StatusCode::kOutOfRange ||
                          code == absl::StatusCode::kResourceExhausted;
    r.kind = declined ? RunKind::kNotJudged : RunKind::kJudgeFailed;
    r.message = verdict.status().ToString();
    if (declined) r.message = std::string(verdict.status().message());
    return r;
  }
  r.kind = RunKind::kJudged;
  r.verdict = *std::move(verdict);
  return r;
}

absl::StatusOr<Differential> RunAndJudge(const isa::Case& c,
                                         targets::Target& target,
                                         const oracle::JudgeOptions& judge) {
  RunOneOptions o;
  o.judge_options = judge;
  RunResult r = RunOne(c, target, o);
  if (r.kind != RunKind::kJudged) {
    const std::string why = absl::StrCat(RunKindName(r.kind), ": ", r.message);
    return r.kind == RunKind::kNotJudged ? absl::InvalidArgumentError(why)
                                         : absl::InternalError(why);
  }
  return Differential{*std::move(r.outcome), std::move(r.verdict)};
}

}  // namespace atomfuzz::fuzz
