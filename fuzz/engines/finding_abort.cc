#include "fuzz/engines/finding_abort.h"

#include <cstdio>
#include <cstdlib>

namespace atomfuzz::fuzz {
namespace {

// One frame per kind; noinline and distinct bodies, so neither the
// compiler nor the linker folds them into one.
#define ATOMFUZZ_ABORT_FRAME(name, code)               \
  [[noreturn]] __attribute__((noinline)) void name() { \
    volatile int kind = code;                          \
    (void)kind;                                        \
    std::abort();                                      \
  }
ATOMFUZZ_ABORT_FRAME(AtomfuzzWrongReturn, 1)
ATOMFUZZ_ABORT_FRAME(AtomfuzzWrongMemory, 2)
ATOMFUZZ_ABORT_FRAME(AtomfuzzWrongCounter, 3)
ATOMFUZZ_ABORT_FRAME(AtomfuzzMissingAtomic, 4)
ATOMFUZZ_ABORT_FRAME(AtomfuzzExtraAtomic, 5)
ATOMFUZZ_ABORT_FRAME(AtomfuzzRejected, 6)
ATOMFUZZ_ABORT_FRAME(AtomfuzzCrashed, 7)
ATOMFUZZ_ABORT_FRAME(AtomfuzzTimedOut, 8)
ATOMFUZZ_ABORT_FRAME(AtomfuzzBudgetExceeded, 9)
ATOMFUZZ_ABORT_FRAME(AtomfuzzInvalidCode, 10)
ATOMFUZZ_ABORT_FRAME(AtomfuzzHarnessError, 11)
#undef ATOMFUZZ_ABORT_FRAME

}  // namespace

void AbortOnFinding(const InputResult& r) {
  std::fprintf(stderr, "%s\n", r.report.c_str());
  std::fflush(stderr);
  if (r.kind != InputResult::Kind::kDivergence || !r.divergence)
    AtomfuzzHarnessError();
  switch (*r.divergence) {
    case oracle::FindingKind::kWrongReturn: AtomfuzzWrongReturn();
    case oracle::FindingKind::kWrongMemory: AtomfuzzWrongMemory();
    case oracle::FindingKind::kWrongCounter: AtomfuzzWrongCounter();
    case oracle::FindingKind::kMissingAtomic: AtomfuzzMissingAtomic();
    case oracle::FindingKind::kExtraAtomic: AtomfuzzExtraAtomic();
    case oracle::FindingKind::kRejected: AtomfuzzRejected();
    case oracle::FindingKind::kCrashed: AtomfuzzCrashed();
    case oracle::FindingKind::kTimedOut: AtomfuzzTimedOut();
    case oracle::FindingKind::kBudgetExceeded: AtomfuzzBudgetExceeded();
    case oracle::FindingKind::kInvalidCode: AtomfuzzInvalidCode();
  }
  AtomfuzzHarnessError();
}

}  // namespace atomfuzz::fuzz
