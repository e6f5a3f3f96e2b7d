// What the judge reports: something no legal execution explains, of one of a
// few kinds. Kinds are an enum so that tools (triage signatures, reports)
// switch on them; FindingKindName is the one place their text is spelled.
#ifndef ATOMFUZZ_ORACLE_FINDING_H_
#define ATOMFUZZ_ORACLE_FINDING_H_

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "isa/outcome.h"

namespace atomfuzz::oracle {

enum class FindingKind : uint8_t {
  kWrongReturn,    // an atomic's returned value fits no order of its word
  kWrongMemory,    // a final word the spec does not allow
  kWrongCounter,   // a UAV counter, or an alloc/consume's return
  kMissingAtomic,  // the spec runs an atomic the target's trace lacks
  kExtraAtomic,    // the trace has an atomic the spec does not run
  // The run itself did not finish as the spec's does (isa::RunStatus).
  kRejected,
  kCrashed,
  kTimedOut,
  kBudgetExceeded,
  kInvalidCode,
};

// "wrong-return", ..., and for a run that did not finish its status's name
// (isa::RunStatusName): what verdicts print.
absl::string_view FindingKindName(FindingKind k);
// The kind of a run that ended with `s` (not kOk).
FindingKind FindingKindOf(isa::RunStatus s);

struct Finding {
  FindingKind kind = FindingKind::kWrongMemory;
  std::string where;
  std::string why;
  // The same place, for machines (triage signatures): the atomic's index in
  // Program::instructions, and the memory; -1 where not known.
  int instruction = -1;
  bool tgsm = false;
  int slot = -1;
  int64_t word = -1;  // -1 also for a counter
};

}  // namespace atomfuzz::oracle

#endif  // ATOMFUZZ_ORACLE_FINDING_H_
