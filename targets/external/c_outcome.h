// The library's atomfuzz_outcome, checked against the case and copied into
// an isa::Outcome. Whatever the library wrote, the result is defined: a
// malformed outcome is RunStatus::kRejected with the reason.
#ifndef ATOMFUZZ_TARGETS_EXTERNAL_C_OUTCOME_H_
#define ATOMFUZZ_TARGETS_EXTERNAL_C_OUTCOME_H_

#include "atomfuzz/target.h"
#include "isa/case_file.h"
#include "isa/outcome.h"

namespace atomfuzz::targets::external {

isa::Outcome FromC(const atomfuzz_outcome& o, const isa::Case& c);

}  // namespace atomfuzz::targets::external

#endif  // ATOMFUZZ_TARGETS_EXTERNAL_C_OUTCOME_H_
