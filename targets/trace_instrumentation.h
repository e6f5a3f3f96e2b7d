// A Program -> Program pass that makes an executor without a trace of its
// own (a GPU) report one: a hidden log UAV that every thread fills with the
// instruction index and the returned value of each atomic it ran. Any target
// can run the instrumented case and turn its outcome back into the original
// case's outcome with a trace.
//
// Stores are what a JIT like lavapipe's pays for (several ms each, more as a
// shader grows), so the log stores as little as it can while the program
// runs. An atomic outside every loop runs at most once per thread: its
// value goes to a register and a bit of a mask register says that it ran.
// Only atomics inside loops store entries as they run. Before every ret the
// thread writes its record from the registers.
//
// Log layout (words; T threads, R record words, K entries per thread):
//   record of thread t at [t * R, +R) = {loop iterations started, loop
//     entries written, mask words (bit s: the s-th atomic outside loops
//     ran), returned values of those of them that return, in order};
//   entries from entries_base (even), event-major so that rows are shared:
//     entry (e, t) at entries_base + (e * T + t) * 2 = {instruction |
//     kNoReturn?, returned}; entries past K all go to row K, never read.
// Everything starts as 0xffffffff. t is the invocation's flat index
// (trace_invocations.h): in compute the dispatch-wide thread id
// x + X*(y + Y*z) of vThreadID; in a ps_5_0 case one per primitive,
// sample (where the shader runs per sample), row and column. The log is an
// R32_UINT texture2d, word w at texel (w % 4096, w / 4096), so that it is no
// buffer UAV (see the .cc).
//
// A pixel invocation also writes its record before every discard_*: once
// discarded (OpKill) or demoted to a helper, its later stores are dropped,
// and the atomics it ran before must not be lost. Helpers and invocations
// discarded before any record write no record, so have no events, as in
// the oracle (docs/pixel-stage.md P.3).
#ifndef ATOMFUZZ_TARGETS_TRACE_INSTRUMENTATION_H_
#define ATOMFUZZ_TARGETS_TRACE_INSTRUMENTATION_H_

#include <array>
#include <cstdint>

#include "absl/status/statusor.h"
#include "isa/case_file.h"
#include "isa/outcome.h"
#include "targets/trace_invocations.h"

namespace atomfuzz::targets {

// Marks a logged atomic_* (it returns nothing).
inline constexpr uint32_t kNoReturn = 0x80000000u;

struct TraceLayout {
  uint32_t log_slot = 0;      // the hidden UAV's u#
  uint32_t threads = 0;       // T: flat indices (threads, pixel invocations)
  uint32_t entries = 0;       // K: loop entries per thread
  uint32_t record_words = 0;  // R
  uint32_t entries_base = 0;
  InvocationSpace invocations;  // what a flat index stands for
};

struct InstrumentedCase {
  isa::Case instrumented;
  TraceLayout layout;
};

// FailedPrecondition when the case leaves no room: all 64 UAV slots used,
// or a dispatch (draw) too large for a log of kMaxResourceWords words. The
// case must be valid (isa::Validate).
absl::StatusOr<InstrumentedCase> InstrumentForTrace(const isa::Case& c);

// How DecodeTrace's message starts when the executor stopped a thread's
// record loop early although the program's loops stayed under its cap.
inline constexpr const char* kRecordCutShort = "trace record cut short";

struct TraceDecodeOptions {
  // An executor's cap on loop iterations (lavapipe: 65535), or 0. Every
  // SIMD vector (InvocationSpace::Vector: 16 consecutive threads of a
  // group, a 4x4 block of pixels) whose iterations together, with the R of
  // the record's own loop, may reach it makes the outcome kBudgetExceeded
  // ("lavapipe loop cap"): the executor may have cut a loop short, so the
  // outcome cannot be compared.
  uint32_t loop_cap = 0;
  const char* loop_cap_name = "loop cap";
};

// The original case's outcome from the instrumented run's: the log UAV
// dropped, the trace rebuilt (group, vThreadIDInGroup, instruction,
// occurrence, file, slot, returned; atomic_* have no returned value; a
// pixel invocation's group is {primitive, 0, 0}, its thread {x, y, sample},
// as the oracle keys it). A
// thread that ran more atomics in loops than its K entries leaves has_trace
// false and says so in the message; so does a log the executor corrupted.
isa::Outcome DecodeTrace(const isa::Case& original, const TraceLayout& layout,
                         isa::Outcome instrumented,
                         const TraceDecodeOptions& options = {});

}  // namespace atomfuzz::targets

#endif  // ATOMFUZZ_TARGETS_TRACE_INSTRUMENTATION_H_
