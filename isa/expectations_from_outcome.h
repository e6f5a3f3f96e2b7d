// The [expect] sections that say what an allowed outcome (the judge's
// AllowedOutcome: each word one value, one of a few, or any) allows, so
// that a saved case checks itself with `atomfuzz check` and exported
// reproducers check the same words.
#ifndef ATOMFUZZ_ISA_EXPECTATIONS_FROM_OUTCOME_H_
#define ATOMFUZZ_ISA_EXPECTATIONS_FROM_OUTCOME_H_

#include "isa/case_file.h"
#include "isa/outcome.h"

namespace atomfuzz::isa {

// Replaces c's word and counter expectations with `allowed`'s: a defined
// word must be its value, a word with choices one of them; an undefined
// word or counter is not listed (any value). Neighbouring words with the
// same expectation share one range line. Return expectations are dropped:
// they name atomics by position, which reduction changes.
void SetExpectations(const Outcome& allowed, Case& c);

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_EXPECTATIONS_FROM_OUTCOME_H_
