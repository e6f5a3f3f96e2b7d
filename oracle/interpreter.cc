#include "oracle/interpreter.h"

#include "oracle/access_log.h"
#include "oracle/control_map.h"
#include "oracle/execution.h"

namespace atomfuzz::oracle {

absl::StatusOr<isa::Outcome> Interpret(const isa::Case& c,
                                       const InterpretOptions& options) {
  InterpretFacts unused;
  return Interpret(c, options, unused);
}

// Races and poison are only known once every access has been seen, but they
// decide what earlier accesses return. So the case runs again with all that
// earlier passes saw, until a pass sees nothing new: that pass decided every
// access knowing every conflict.
absl::StatusOr<isa::Outcome> Interpret(const isa::Case& c,
                                       const InterpretOptions& options,
                                       InterpretFacts& facts) {
  facts = {};
  absl::StatusOr<ControlMap> map = BuildControlMap(c.shader);
  if (!map.ok()) return map.status();
  constexpr int kMaxPasses = 8;
  const DecodedProgram decoded = Decode(c.shader);
  AccessLog known;
  for (int pass = 0;; ++pass) {
    Execution e(c, *map, decoded, options, known);
    if (absl::Status s = e.Run(); !s.ok()) return s;
    facts.may_leave_tgsm = facts.may_leave_tgsm || e.may_leave_tgsm();
    const bool learned = known.LearnFrom(e.TakeLog());
    isa::Outcome outcome = e.TakeOutcome();
    if (!learned || outcome.status != isa::RunStatus::kOk) return outcome;
    if (pass + 1 == kMaxPasses) {
      // Still learning: give up on definite values rather than guess.
      for (isa::UavState& u : outcome.uavs) {
        u.defined.assign(u.defined.size(), false);
        u.choices.clear();
        u.counter_defined = false;
      }
      for (isa::AtomicEvent& ev : outcome.trace) ev.returned.reset();
      outcome.message = "race analysis did not converge; all values undefined";
      return outcome;
    }
  }
}

}  // namespace atomfuzz::oracle
