// The judge: is an observed outcome (a target's final memory, counters and,
// when it can observe them, the values its atomics returned) one that the
// spec allows? It never calls a legal outcome a divergence: undefined values
// (spec 0.1, 6.0) and every serialization of concurrent atomics (2.1, 2.4)
// are accepted.
//
// With a trace, the case is re-executed with each atomic returning what the
// target saw, so everything computed from returned values is checked, and
// each word's atomics must admit one total order explaining every return and
// the final value. Without a trace, only order-independent results are
// judged (a return that depends on other threads' atomics is undefined).
#ifndef ATOMFUZZ_ORACLE_JUDGE_H_
#define ATOMFUZZ_ORACLE_JUDGE_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "isa/case_file.h"
#include "isa/outcome.h"
#include "oracle/interpreter.h"
#include "oracle/replay.h"

namespace atomfuzz::oracle {

struct JudgeOptions {
  InterpretOptions interpret;         // budgets (the schedule is unused)
  uint64_t search_budget = 1u << 20;  // per word, serialization search steps
};

struct Verdict {
  enum class Kind : uint8_t { kAllowed, kDivergence, kUnknown };
  Kind kind = Kind::kAllowed;
  std::vector<Finding> findings;     // kDivergence: the first is the headline
  std::vector<std::string> unknown;  // searches that ran out of budget
  std::vector<std::string> notes;    // what could not be judged, and why
                                     // (per word where it can say)
  // "allowed", "unknown: ...", or "divergence: <kind> at <where>: <why>".
  std::string Summary() const;
};

namespace judge_internal {
struct Room;  // judge.cc
}  // namespace judge_internal

// What the judge builds per case (the control map, the trace's index, the
// passes' threads, registers, memory and access logs), kept with the room
// of its vectors for the next case. Small cases are most of a campaign, and
// there allocating all that anew was an eighth of the judge's work. For one
// thread at a time. (Not named Judge*: profiles toggle on that pattern.)
class JudgingScratch {
 public:
  JudgingScratch();
  ~JudgingScratch();
  JudgingScratch(JudgingScratch&&) noexcept;
  JudgingScratch& operator=(JudgingScratch&&) noexcept;

 private:
  friend absl::StatusOr<Verdict> Judge(const isa::Case&, const isa::Outcome&,
                                       const JudgeOptions&, JudgingScratch&);
  std::unique_ptr<judge_internal::Room> room_;
};

// One case, from scratch.
absl::StatusOr<Verdict> Judge(const isa::Case& c, const isa::Outcome& observed,
                              const JudgeOptions& options = {});
// The same verdict, in `scratch`'s room: for a caller that judges many
// cases (a campaign worker keeps one scratch for its whole run).
absl::StatusOr<Verdict> Judge(const isa::Case& c, const isa::Outcome& observed,
                              const JudgeOptions& options,
                              JudgingScratch& scratch);

// What the judge requires of a target it cannot trace, word by word: each
// final word defined (one value), one of a few (UavState::choices) or any
// (undefined), and each counter; the status where the spec's run does not
// finish. Exported reproducers and [expect] sections check exactly this.
absl::StatusOr<isa::Outcome> AllowedOutcome(const isa::Case& c,
                                            const JudgeOptions& options = {});

}  // namespace atomfuzz::oracle

#endif  // ATOMFUZZ_ORACLE_JUDGE_H_
