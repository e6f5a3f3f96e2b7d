#include "isa/outcome.h"

namespace atomfuzz::isa {

absl::string_view RunStatusName(RunStatus s) {
  switch (s) {
    case RunStatus::kOk: return "ok";
    case RunStatus::kRejected: return "rejected";
    case RunStatus::kCrashed: return "crashed";
    case RunStatus::kTimedOut: return "timed out";
    case RunStatus::kBudgetExceeded: return "budget exceeded";
    case RunStatus::kInvalidCode: return "invalid-code";
  }
  return "?";
}

absl::string_view AddressClassName(AddressClass c) {
  switch (c) {
    case AddressClass::kInBounds: return "in-bounds";
    case AddressClass::kSkip: return "oob-skip";
    case AddressClass::kUavPoison: return "uav-poison";
    case AddressClass::kTgsmPoison: return "tgsm-poison";
    case AddressClass::kUndefined: return "undefined-address";
  }
  return "?";
}

const UavState* Outcome::FindUav(uint32_t slot) const {
  for (const UavState& u : uavs) {
    if (u.slot == slot) return &u;
  }
  return nullptr;
}

}  // namespace atomfuzz::isa
