#include "oracle/finding.h"

namespace atomfuzz::oracle {

absl::string_view FindingKindName(FindingKind k) {
  switch (k) {
    case FindingKind::kWrongReturn: return "wrong-return";
    case FindingKind::kWrongMemory: return "wrong-memory";
    case FindingKind::kWrongCounter: return "wrong-counter";
    case FindingKind::kMissingAtomic: return "missing-atomic";
    case FindingKind::kExtraAtomic: return "extra-atomic";
    case FindingKind::kRejected:
      return isa::RunStatusName(isa::RunStatus::kRejected);
    case FindingKind::kCrashed:
      return isa::RunStatusName(isa::RunStatus::kCrashed);
    case FindingKind::kTimedOut:
      return isa::RunStatusName(isa::RunStatus::kTimedOut);
    case FindingKind::kBudgetExceeded:
      return isa::RunStatusName(isa::RunStatus::kBudgetExceeded);
    case FindingKind::kInvalidCode:
      return isa::RunStatusName(isa::RunStatus::kInvalidCode);
  }
  return "?";
}

FindingKind FindingKindOf(isa::RunStatus s) {
  switch (s) {
    case isa::RunStatus::kRejected: return FindingKind::kRejected;
    case isa::RunStatus::kCrashed: return FindingKind::kCrashed;
    case isa::RunStatus::kTimedOut: return FindingKind::kTimedOut;
    case isa::RunStatus::kBudgetExceeded: return FindingKind::kBudgetExceeded;
    case isa::RunStatus::kInvalidCode:
    case isa::RunStatus::kOk: break;
  }
  return FindingKind::kInvalidCode;
}

}  // namespace atomfuzz::oracle
