// Checks a case (or a lone program) against the spec's static rules. Each
// violation is a diagnostic naming the rule and its spec section:
//   file:line:col: expected <the rule>, found <the violation> [rule-id, spec X]
#ifndef ATOMFUZZ_ISA_VALIDATOR_H_
#define ATOMFUZZ_ISA_VALIDATOR_H_

#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
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

// Validate(c) for a case whose program is known to pass ValidateProgram
// (say, the program of a case that passed Validate): only the rules on what
// the case adds (dispatch, bindings, counters, expectations) are checked,
// so a mutant that changed only those is validated without walking its
// program again. Given a program that does not pass, the result is
// meaningless.
absl::Status ValidateWithCheckedProgram(const Case& c);

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_VALIDATOR_H_
