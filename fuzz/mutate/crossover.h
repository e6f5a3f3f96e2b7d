// Crossover of two cases: a range of b's code (one instruction, a run of
// them, or a whole block) spliced into a, its memory operands retargeted to
// memories a declares and its registers declared in a. The result may break
// a rule (a sync_*_t landing in divergent flow, alloc beside consume);
// Mutator::CrossOver validates and retries.
#ifndef ATOMFUZZ_FUZZ_MUTATE_CROSSOVER_H_
#define ATOMFUZZ_FUZZ_MUTATE_CROSSOVER_H_

#include "fuzz/generate/choices.h"
#include "isa/case_file.h"

namespace atomfuzz::fuzz {

// Splices part of `b` into `a`; false if nothing fitting was found (b has
// no code, a has no memory b's atomics may use, x# registers a lacks).
bool SpliceCode(isa::Case& a, const isa::Case& b, Choices& choices);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_MUTATE_CROSSOVER_H_
