// A finding written up for people: the verdict's headline, the bucket, the
// target, the case's provenance, then what the oracle allows beside what the
// target gave (only the words that differ, and the judge's findings on
// returned values), and the atomics involved with their line numbers.
#ifndef ATOMFUZZ_FUZZ_TRIAGE_REPORT_H_
#define ATOMFUZZ_FUZZ_TRIAGE_REPORT_H_

#include <string>

#include "absl/strings/string_view.h"
#include "fuzz/differential.h"
#include "fuzz/triage/signature.h"
#include "isa/case_file.h"

namespace atomfuzz::fuzz {

// `c` is the case the differential `d` was run on (normally the reduced
// one). The oracle is run once on it (canonical schedule) to print the
// allowed words; undefined words print as ????????. Never fails: what cannot
// be computed is said in the text. `trigger` is the bucket's sentence
// (generalise.h); "" says TriggerSentence(signature).
std::string RenderReport(const isa::Case& c, const Differential& d,
                         const Signature& signature,
                         const std::string& trigger = "");

// For a worker that crashed or hung: no outcome to compare. `what` is the
// supervisor's account ("killed by signal 11", "no progress for 10 s").
std::string RenderWorkerFailureReport(const isa::Case& c,
                                      const Signature& signature,
                                      absl::string_view what);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_TRIAGE_REPORT_H_
