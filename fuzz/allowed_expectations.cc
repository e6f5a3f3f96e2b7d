#include "fuzz/allowed_expectations.h"

#include "isa/expectations_from_outcome.h"

namespace atomfuzz::fuzz {

absl::Status ExpectWhatTheSpecAllows(isa::Case& c,
                                     const oracle::JudgeOptions& options) {
  absl::StatusOr<isa::Outcome> allowed = oracle::AllowedOutcome(c, options);
  if (!allowed.ok()) return allowed.status();
  isa::SetExpectations(*allowed, c);
  return absl::OkStatus();
}

}  // namespace atomfuzz::fuzz
