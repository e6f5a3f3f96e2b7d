// What a finding's report gives people outside atomfuzz: the translator's
// and driver's own words (vkd3d-shader's log and FIXME lines, the run's
// message with a crash's frames), the generated SPIR-V around the atomic
// the judge blames, and the commands that export a reproducer of it.
#ifndef ATOMFUZZ_FUZZ_TRIAGE_REPORT_EVIDENCE_H_
#define ATOMFUZZ_FUZZ_TRIAGE_REPORT_EVIDENCE_H_

#include <string>

#include "absl/strings/string_view.h"
#include "fuzz/differential.h"
#include "isa/case_file.h"

namespace atomfuzz::fuzz {

// `c` diverged on `target` (a --target name) as `d` says; `file` is the
// name the case is saved as beside the report ("reduced.case"). Compiles
// the shader again in a child process for a vulkan target; never fails.
std::string ReportEvidence(const isa::Case& c, const Differential& d,
                           const std::string& target, absl::string_view file);

// Lines [at - before, at + after] of `text`, each indented by two spaces,
// with the line `at` marked "=>"; 0-based.
std::string Excerpt(absl::string_view text, size_t at, size_t before,
                    size_t after);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_TRIAGE_REPORT_EVIDENCE_H_
