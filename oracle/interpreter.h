// The reference interpreter: runs a case literally by the spec, tracking
// undefined values, and returns the shared Outcome with the full atomic trace.
// Written for obviousness, not speed.
#ifndef ATOMFUZZ_ORACLE_INTERPRETER_H_
#define ATOMFUZZ_ORACLE_INTERPRETER_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "isa/case_file.h"
#include "isa/outcome.h"
#include "oracle/schedule.h"

namespace atomfuzz::oracle {

struct InterpretOptions {
  Schedule schedule;
  // An endless loop ends the run with RunStatus::kBudgetExceeded. A step is
  // any instruction executed, declarations included, under every schedule.
  uint64_t max_steps_per_thread = 1u << 20;
  uint64_t max_total_steps = 1ull << 31;
  // Bounds on what one case may make the interpreter allocate.
  uint64_t max_threads = 1u << 20;
  uint64_t max_register_values = 1ull << 26;
  // Atomics the trace may hold (an endless loop of atomics would otherwise
  // fill memory): past it the run ends as over budget.
  uint64_t max_trace_events = 1u << 22;
};

// InvalidArgument if the case cannot be run at all (unbalanced control flow,
// a declared u# with no resource, too large); otherwise an Outcome whose
// status says whether the run completed.
absl::StatusOr<isa::Outcome> Interpret(const isa::Case& c,
                                       const InterpretOptions& options = {});

}  // namespace atomfuzz::oracle

#endif  // ATOMFUZZ_ORACLE_INTERPRETER_H_
