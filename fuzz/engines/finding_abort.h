// How a harness stops on a finding: the report on stderr, then abort()
// from a function named after the divergence kind
// (AtomfuzzWrongReturn, AtomfuzzCrashed, ...; AtomfuzzHarnessError for our
// own failures), so that engines that deduplicate crashes by their top
// stack frames (ClusterFuzz, OSS-Fuzz) keep different kinds of bugs apart.
#ifndef ATOMFUZZ_FUZZ_ENGINES_FINDING_ABORT_H_
#define ATOMFUZZ_FUZZ_ENGINES_FINDING_ABORT_H_

#include "fuzz/engines/harness.h"

namespace atomfuzz::fuzz {

// For kDivergence and kError results.
[[noreturn]] void AbortOnFinding(const InputResult& r);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_ENGINES_FINDING_ABORT_H_
