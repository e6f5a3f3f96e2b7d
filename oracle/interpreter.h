// The reference interpreter: runs a case literally by the spec, tracking
// undefined values, and returns the shared Outcome with the full atomic trace.
//
// The reference semantics, written for obviousness, are these files of
// oracle/ (judge.h and schedule.h are the other public headers):
//   interpreter.cc       passes until races and poison are all known
//   execution.h, .cc     one pass: scheduling, barriers, control flow, r# and
//                        x# reads and writes, ALU (Execution::ExecAluLanes)
//   execution_setup.cc   memories, groups, threads; the outcome
//   alu.h                the integer ALU on one lane (EvalAlu), undefined in,
//                        undefined out; value_sets.h: the same on sets
//   memory_ops.cc        loads, stores, atomics; addressing.h: where an
//                        address lands; rmw.h: the atomics' arithmetic
//   access_log.h, racing_read.h   races and poison between passes
//   system_values.h      where a thread keeps vThreadID and the others
// The speed-ups live in oracle/internal/ (its README.md says what each one
// speeds up and which test checks it against the plain path): the reference
// is never to be read with them. Each pass goes through two: Decode
// (internal/decoded_program.h) works out per instruction what the plain
// path would look up at every step (each field says its plain meaning), and
// a one-lane ALU instruction runs as a FlatAlu (internal/flat_alu.h) where
// it can, else as ExecAluLanes; with no flat forms at all the outcome is
// the same (tests/oracle/flat_alu_test.cc).
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

// What a run did that its outcome does not say, for a caller that keeps a
// target away from what it is known to mishandle.
struct InterpretFacts {
  // Some g# access was out of bounds, misaligned or at an undefined address
  // (spec 1.3, 1.7), or, with a g# declared, the run cannot say where its
  // accesses went: control flow took an undefined condition (6.0) or the
  // run did not finish.
  bool may_leave_tgsm = false;
};
absl::StatusOr<isa::Outcome> Interpret(const isa::Case& c,
                                       const InterpretOptions& options,
                                       InterpretFacts& facts);

}  // namespace atomfuzz::oracle

#endif  // ATOMFUZZ_ORACLE_INTERPRETER_H_
