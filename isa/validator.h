// Checks a case (or a lone program) against the spec's static rules. Each
// violation is a diagnostic naming the rule and its spec section:
//   file:line:col: expected <the rule>, found <the violation> [rule-id, spec X]
#ifndef ATOMFUZZ_ISA_VALIDATOR_H_
#define ATOMFUZZ_ISA_VALIDATOR_H_

#include "absl/strings/string_view.h"
#include <vector>

#include "absl/status/status.h"
#include "isa/case_file.h"
#include "isa/diagnostics.h"
#include "isa/program.h"

namespace atomfuzz::isa {

// Stable rule ids, one per rule; tests and docs refer to them.
struct Rule {
  absl::string_view id;
  absl::string_view spec;  // section or edge case
  absl::string_view summary;
};
std::span<const Rule> AllRules();

// Program-only rules into `sink`.
void ValidateProgram(const Program& program, DiagnosticSink& sink);
// Program rules, then the case's resources, dispatch and expectations.
void ValidateCase(const Case& c, DiagnosticSink& sink);

// Convenience: OK, or InvalidArgument listing every violation.
absl::Status Validate(const Case& c);

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_VALIDATOR_H_
