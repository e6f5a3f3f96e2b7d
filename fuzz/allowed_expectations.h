// A case's [expect] sections set to what the judge allows of any target it
// cannot trace (oracle::AllowedOutcome): reduced findings carry them, so
// each is a regression test for `atomfuzz check`, and exported reproducers
// check the same words with the same sets.
#ifndef ATOMFUZZ_FUZZ_ALLOWED_EXPECTATIONS_H_
#define ATOMFUZZ_FUZZ_ALLOWED_EXPECTATIONS_H_

#include "absl/status/status.h"
#include "isa/case_file.h"
#include "oracle/judge.h"

namespace atomfuzz::fuzz {

// Replaces c's word and counter expectations (isa::SetExpectations); an
// error where the oracle cannot run the case at all. A case whose spec run
// does not finish gets none.
absl::Status ExpectWhatTheSpecAllows(isa::Case& c,
                                     const oracle::JudgeOptions& options = {});

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_ALLOWED_EXPECTATIONS_H_
