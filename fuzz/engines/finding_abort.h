// How a harness stops on a finding: the report and the bucket's signature
// ("atomfuzz signature: KEY", docs/triage.md) on stderr, then abort()
// through three frames named after the signature, outermost first: the
// divergence kind (AtomfuzzWrongReturn, AtomfuzzCrashed, ...;
// AtomfuzzHarnessError for our own failures), the atomic
// (AtomfuzzOp_imm_atomic_cmp_exch, AtomfuzzOpAny where the signature names
// none or several), the memory (AtomfuzzMemURaw, AtomfuzzMemAny). Engines
// that deduplicate crashes by their top stack frames (ClusterFuzz's crash
// state is the top three) so keep different bugs apart.
#ifndef ATOMFUZZ_FUZZ_ENGINES_FINDING_ABORT_H_
#define ATOMFUZZ_FUZZ_ENGINES_FINDING_ABORT_H_

#include "absl/strings/string_view.h"
#include "fuzz/engines/harness.h"

namespace atomfuzz::fuzz {

// For kDivergence and kError results.
[[noreturn]] void AbortOnFinding(const InputResult& r);

// Whether an atomic's mnemonic, or a signature's memory token ("u-raw"),
// has a frame of its own (else it aborts through the "Any" frame).
bool HasOpFrame(absl::string_view mnemonic);
bool HasMemoryFrame(absl::string_view resource);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_ENGINES_FINDING_ABORT_H_
