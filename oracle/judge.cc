#include "oracle/judge.h"

#include <algorithm>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "oracle/access_log.h"
#include "oracle/control_map.h"
#include "oracle/execution.h"

namespace atomfuzz::oracle {
namespace {

std::string Hex(uint32_t v) { return absl::StrFormat("0x%08x", v); }

// "0x00000005", or "one of {0x00000000, 0x00000001}".
std::string OneOf(absl::Span<const uint32_t> values) {
  if (values.size() == 1) return Hex(values[0]);
  std::string out = "one of {";
  for (size_t i = 0; i < values.size(); ++i) {
    absl::StrAppend(&out, i ? ", " : "", Hex(values[i]));
  }
  return out + "}";
}

// Final words and counters the replay defines must be what was observed.
// Read from the pass's UAVs themselves (by slot, as an outcome lists them),
// not from an outcome built of them: `words_defined` false (the race
// analysis did not converge) leaves only sizes and counters to compare.
void CompareMemory(absl::Span<const std::optional<Uav>> uavs,
                   const ValueSets& sets, bool words_defined,
                   const isa::Outcome& seen, std::vector<Finding>& findings) {
  for (uint32_t slot = 0; slot < uavs.size(); ++slot) {
    if (!uavs[slot]) continue;
    const Uav& want = *uavs[slot];
    const isa::UavState* got = seen.FindUav(slot);
    if (got == nullptr || got->words.size() != want.words.size()) {
      findings.push_back({FindingKind::kWrongMemory, absl::StrCat("u", slot),
                          absl::StrCat("expected ", want.words.size(),
                                       " words, the target returned ",
                                       got ? got->words.size() : 0),
                          -1, false, static_cast<int>(slot)});
      continue;
    }
    for (size_t w = 0; words_defined && w < want.words.size(); ++w) {
      const Value v = want.words[w];
      if (v.defined ? got->words[w] == v.bits : !v.set) continue;
      uint32_t one;
      const absl::Span<const uint32_t> allowed = sets.Elements(v, one);
      if (std::binary_search(allowed.begin(), allowed.end(), got->words[w]))
        continue;
      findings.push_back(
          {FindingKind::kWrongMemory, absl::StrCat("u", slot, "[", w, "]"),
           absl::StrCat("expected ", OneOf(allowed), ", got ",
                        Hex(got->words[w])),
           -1, false, static_cast<int>(slot), static_cast<int64_t>(w)});
    }
    if (want.counter && want.counter->defined &&
        (!got->counter || *got->counter != want.counter->bits)) {
      findings.push_back(
          {FindingKind::kWrongCounter, absl::StrCat("u", slot, " counter"),
           absl::StrCat("expected ", Hex(want.counter->bits), ", got ",
                        got->counter ? Hex(*got->counter) : "none"),
           -1, false, static_cast<int>(slot)});
    }
  }
}

}  // namespace

std::string Verdict::Summary() const {
  switch (kind) {
    case Kind::kAllowed: return "allowed";
    case Kind::kUnknown:
      return absl::StrCat("unknown: ", unknown.empty() ? "" : unknown.front());
    case Kind::kDivergence: {
      const Finding& f = findings.front();
      std::string s = absl::StrCat("divergence: ", FindingKindName(f.kind),
                                   " at ", f.where, ": ", f.why);
      if (findings.size() > 1)
        absl::StrAppend(&s, " (and ", findings.size() - 1, " more)");
      return s;
    }
  }
  return "?";
}

namespace judge_internal {

struct Room {
  ControlMap map;
  DecodedProgram decoded;
  AccessLog known;
  ExecutionStorage execution;
  // The last case's Replay, finished: only its containers' room is used.
  std::optional<Replay> spent;
};

}  // namespace judge_internal

JudgingScratch::JudgingScratch()
    : room_(std::make_unique<judge_internal::Room>()) {}
JudgingScratch::~JudgingScratch() = default;
JudgingScratch::JudgingScratch(JudgingScratch&&) noexcept = default;
JudgingScratch& JudgingScratch::operator=(JudgingScratch&&) noexcept = default;

namespace {

using judge_internal::Room;

// The passes over a case with a trace, into `v`.
absl::Status Passes(const isa::Case& c, const isa::Outcome& observed,
                    const JudgeOptions& options, Room& room, Replay& replay,
                    Verdict& v);

// Both Judge()s (one body, not one calling the other: profiles toggle on
// entering either).
absl::StatusOr<Verdict> JudgeIn(const isa::Case& c,
                                const isa::Outcome& observed,
                                const JudgeOptions& options, Room& room) {
  Verdict v;
  if (observed.status != isa::RunStatus::kOk) {
    // Only an endless loop excuses a run that did not finish.
    auto spec = Interpret(c, options.interpret);
    if (!spec.ok()) return spec.status();
    const bool unfinished =
        observed.status == isa::RunStatus::kBudgetExceeded ||
        observed.status == isa::RunStatus::kTimedOut;
    if (unfinished && spec->status == isa::RunStatus::kBudgetExceeded) {
      v.notes.push_back("the program does not terminate; nothing to compare");
      return v;
    }
    if (unfinished && spec->message == kChaosMessage) {
      // After an undefined branch the spec allows any behaviour (6.0),
      // running forever included.
      v.notes.push_back(absl::StrCat("nothing judged: ", kChaosMessage));
      return v;
    }
    if (observed.status == isa::RunStatus::kBudgetExceeded) {
      // The executor's own instruction budget is per wave, the spec's per
      // thread: a wave that runs its lanes' paths in turn can run out first.
      // Its run is unfinished, not wrong.
      v.kind = Verdict::Kind::kUnknown;
      v.unknown.push_back(
          absl::StrCat("the target ran out of its instruction budget (",
                       observed.message, ") on a run the spec finishes"));
      return v;
    }
    v.kind = Verdict::Kind::kDivergence;
    v.findings.push_back({FindingKindOf(observed.status), "the run",
                          observed.message.empty() ? "the spec's run completes"
                                                   : observed.message});
    return v;
  }
  if (absl::Status s = BuildControlMap(c.shader, room.map); !s.ok()) return s;
  if (!observed.has_trace) {
    v.notes.push_back(
        "no trace: returned values and order-dependent words not judged");
  }
  Decode(c.shader, room.decoded);
  room.known.Clear();
  Replay replay = room.spent
                      ? Replay(observed, c.shader, options.search_budget,
                               std::move(*room.spent))
                      : Replay(observed, c.shader, options.search_budget);
  absl::Status s = Passes(c, observed, options, room, replay, v);
  room.spent.emplace(std::move(replay));
  if (!s.ok()) return s;
  return v;
}

// Runs `replay`'s passes to the same fixpoint as Interpret() (rerun until
// no new race or poison appears), then hands the last pass to `last` with
// whether the race analysis converged.
template <typename Last>
absl::Status ReplayPasses(const isa::Case& c, const JudgeOptions& options,
                          Room& room, Replay& replay, Last last) {
  constexpr int kMaxPasses = 8;
  for (int pass = 0; pass < kMaxPasses; ++pass) {
    if (pass > 0) replay.Restart();
    Execution e(c, room.map, room.decoded, options.interpret, room.known,
                &replay, &room.execution);
    if (absl::Status s = e.Run(); !s.ok()) return s;
    const bool learned = e.LearnInto(room.known);
    if (learned && pass + 1 < kMaxPasses) continue;
    replay.Finish();
    last(e, !learned);
    break;
  }
  return absl::OkStatus();
}

absl::Status Passes(const isa::Case& c, const isa::Outcome& observed,
                    const JudgeOptions& options, Room& room, Replay& replay,
                    Verdict& v) {
  absl::Status s =
      ReplayPasses(c, options, room, replay, [&](Execution& e, bool converged) {
        if (e.chaos()) {
          // Which atomics run, how often, is itself undefined: any trace and
          // any memory are allowed (spec 6.0), and so is a replay that does
          // not end (a loop on an undefined condition).
          v.notes.push_back(
              "nothing judged: control flow depended on an undefined value");
          return;
        }
        if (e.status() != isa::RunStatus::kOk) {
          v.kind = Verdict::Kind::kUnknown;
          v.unknown.push_back(
              absl::StrCat("replaying the observed returns: ", e.message()));
          return;
        }
        if (!converged)
          v.notes.push_back(
              "race analysis did not converge; memory not judged");
        if (!e.message().empty()) v.notes.push_back(std::string(e.message()));
        v.findings = replay.TakeFindings();
        CompareMemory(e.uavs(), e.sets(), converged, observed, v.findings);
        if (converged)
          e.counter_slots().Check(c.shader, e.uavs(), e.sets(), observed,
                                  v.findings);
        v.unknown = replay.TakeUnknowns();
        replay.TakeUnjudged(v.notes);
        if (!v.findings.empty()) {
          v.kind = Verdict::Kind::kDivergence;
        } else if (!v.unknown.empty()) {
          v.kind = Verdict::Kind::kUnknown;
        }
      });
  return s;
}

}  // namespace

absl::StatusOr<Verdict> Judge(const isa::Case& c, const isa::Outcome& observed,
                              const JudgeOptions& options) {
  Room room;
  return JudgeIn(c, observed, options, room);
}

absl::StatusOr<Verdict> Judge(const isa::Case& c, const isa::Outcome& observed,
                              const JudgeOptions& options,
                              JudgingScratch& scratch) {
  return JudgeIn(c, observed, options, *scratch.room_);
}

absl::StatusOr<isa::Outcome> AllowedOutcome(const isa::Case& c,
                                            const JudgeOptions& options) {
  Room room;
  if (absl::Status s = BuildControlMap(c.shader, room.map); !s.ok()) return s;
  Decode(c.shader, room.decoded);
  // The replay of an observation with no trace and no memory: every return
  // that depends on other threads is undefined, and each word ends as the
  // judge would require of any target it cannot trace.
  isa::Outcome blind;
  Replay replay(blind, c.shader, options.search_budget);
  isa::Outcome allowed;
  absl::Status s =
      ReplayPasses(c, options, room, replay, [&](Execution& e, bool converged) {
        if (e.status() != isa::RunStatus::kOk && !e.chaos()) {
          allowed = isa::Outcome::Ended(e.status(), std::string(e.message()));
          return;
        }
        allowed = e.TakeOutcome();
        if (!converged) {
          for (isa::UavState& u : allowed.uavs) {
            u.defined.assign(u.words.size(), false);
            u.choices.clear();
          }
        }
      });
  if (!s.ok()) return s;
  allowed.has_trace = false;
  allowed.trace.clear();
  return allowed;
}

}  // namespace atomfuzz::oracle
