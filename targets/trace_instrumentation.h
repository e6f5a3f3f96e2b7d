// A Program -> Program pass that makes an executor without a trace of its
// own (a GPU) report one: a hidden log UAV, and after every atomic a
// store of the instruction index and the returned value into the executing
// thread's next log entry. Any target can run the instrumented case and turn
// its outcome back into the original case's outcome with a trace.
//
// Log layout, event-major so that a thread past its K entries writes out of
// bounds (dropped, spec 1.3) instead of into another thread's entries:
//   entry (e, t) at words [(e * T + t) * 2, +1] = {instruction | kNoReturn?,
//   returned}, initialised to 0xffffffff; then a header of two words per
//   thread at 2*K*T + 2*t: {atomics executed, loop iterations started}.
// t is the flat dispatch-wide thread id x + X*(y + Y*z) of vThreadID. The
// log is an R32_UINT texture2d, word w at texel (w % 4096, w / 4096), so that
// it is no buffer UAV (see the .cc for why).
#ifndef ATOMFUZZ_TARGETS_TRACE_INSTRUMENTATION_H_
#define ATOMFUZZ_TARGETS_TRACE_INSTRUMENTATION_H_

#include <array>
#include <cstdint>

#include "absl/status/statusor.h"
#include "isa/case_file.h"
#include "isa/outcome.h"

namespace atomfuzz::targets {

// Marks a logged atomic_* (it returns nothing).
inline constexpr uint32_t kNoReturn = 0x80000000u;

struct TraceLayout {
  uint32_t log_slot = 0;  // the hidden UAV's u#
  uint32_t threads = 0;   // T: threads in the dispatch
  uint32_t entries = 0;   // K: log entries per thread
  std::array<uint32_t, 3> group_size = {1, 1, 1};
  std::array<uint32_t, 3> groups = {1, 1, 1};
};

struct InstrumentedCase {
  isa::Case instrumented;
  TraceLayout layout;
};

// FailedPrecondition when the case leaves no room: all 64 UAV slots used,
// or a dispatch too large for a log of kMaxResourceWords words. The case
// must be valid (isa::Validate).
absl::StatusOr<InstrumentedCase> InstrumentForTrace(const isa::Case& c);

struct TraceDecodeOptions {
  // An executor's cap on loop iterations (lavapipe: 65535), or 0. Every run
  // of 16 consecutive threads of a group (a SIMD vector of lavapipe or
  // smaller) whose iterations together may reach it makes the outcome
  // kBudgetExceeded ("lavapipe loop cap"): the executor may have cut a loop
  // short, so the outcome cannot be compared.
  uint32_t loop_cap = 0;
  const char* loop_cap_name = "loop cap";
};

// The original case's outcome from the instrumented run's: the log UAV
// dropped, the trace rebuilt (group, vThreadIDInGroup, instruction,
// occurrence, file, slot, returned; atomic_* have no returned value). A
// thread that ran more atomics than its K entries leaves has_trace false and
// says so in the message; so does a log the executor corrupted.
isa::Outcome DecodeTrace(const isa::Case& original, const TraceLayout& layout,
                         isa::Outcome instrumented, const TraceDecodeOptions& options = {});

}  // namespace atomfuzz::targets

#endif  // ATOMFUZZ_TARGETS_TRACE_INSTRUMENTATION_H_
