// The rule table behind validator.h, and the helper every check reports
// through (internal to isa/).
#ifndef ATOMFUZZ_ISA_VALIDATION_RULES_H_
#define ATOMFUZZ_ISA_VALIDATION_RULES_H_

#include <string>
#include "absl/strings/string_view.h"

#include "isa/diagnostics.h"
#include "isa/validator.h"

namespace atomfuzz::isa {

enum class RuleId {
  kDeclBeforeUse, kDeclOrder, kDeclDuplicate, kTempsLimit, kThreadGroup,
  kTgsmSize, kStride, kTypedFormat, kDst0SingleComponent, kCounterNeedsCounter,
  kAllocAndConsume, kSyncInDivergentFlow, kSyncFlags, kDynamicUavIndex,
  kControlFlow, kResourceBinding, kMemoryKind, kStoreMask, kOperandWidth,
  kDispatch, kRegisterRange, kOpcNeedsCounter, kEndsWithRet, kCaseLiteral,
  kExpectation,
};

const Rule& RuleOf(RuleId id);

// Reports a violation of `id` at `line` (column 1).
void Violation(DiagnosticSink& sink, RuleId id, int line, std::string expected,
               std::string found);

// Checks that need the control-flow structure (control_flow_check.cc).
void CheckControlFlow(const Program& program, DiagnosticSink& sink);

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_VALIDATION_RULES_H_
