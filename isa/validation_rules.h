// The rule table behind validator.h, and the helper every check reports
// through (internal to isa/).
#ifndef ATOMFUZZ_ISA_VALIDATION_RULES_H_
#define ATOMFUZZ_ISA_VALIDATION_RULES_H_

#include <iterator>
#include <string>

#include "absl/strings/string_view.h"
#include "isa/diagnostics.h"
#include "isa/validator.h"

namespace atomfuzz::isa {

enum class RuleId {
  kDeclBeforeUse,
  kDeclOrder,
  kDeclDuplicate,
  kTempsLimit,
  kThreadGroup,
  kTgsmSize,
  kStride,
  kTypedFormat,
  kDst0SingleComponent,
  kCounterNeedsCounter,
  kAllocAndConsume,
  kSyncInDivergentFlow,
  kSyncFlags,
  kDynamicUavIndex,
  kControlFlow,
  kResourceBinding,
  kMemoryKind,
  kStoreMask,
  kOperandWidth,
  kDispatch,
  kRegisterRange,
  kOpcNeedsCounter,
  kEndsWithRet,
  kCaseLiteral,
  kExpectation,
  kStage,
  kPixelInput,
  kDraw,
};

// One row per RuleId, in the enum's order; validator.h's AllRules() returns
// it. Kept next to the enum so that the two cannot drift apart.
inline constexpr Rule kRules[] = {
    {"decl-before-use", "spec 3.1, 1.8",
     "every register is declared before use"},
    {"decl-order", "spec 3.1", "declarations precede instructions"},
    {"decl-duplicate", "spec 1.8", "a register is declared once"},
    {"temps-limit", "spec 1.8", "temps plus indexable temps <= 4096"},
    {"thread-group", "spec 1.8",
     "one dcl_thread_group within 1024x1024x64, x*y*z <= 1024"},
    {"tgsm-size", "spec 1.8",
     "g# sizes are positive multiples of 4, total <= 32768 bytes"},
    {"stride", "spec 1.2, 1.8",
     "structured stride > 0, multiple of 4, <= 2048"},
    {"typed-format", "E-24, spec 1.1",
     "typed atomics only on uint/sint R32 views"},
    {"dst0-single-component", "spec 1.5",
     "dst0 of an immediate atomic has one component"},
    {"counter-needs-counter", "spec 1.6",
     "alloc/consume target a structured UAV with a counter"},
    {"alloc-and-consume", "E-37, spec 1.6",
     "alloc and consume not both on one UAV"},
    {"sync-in-divergent-flow", "E-30, spec 2.2",
     "sync with _t only in uniform control flow"},
    {"sync-flags", "E-32, E-33, spec 2.2",
     "sync flags form one of the valid variants"},
    {"dynamic-uav-index", "E-44, spec 1.1",
     "u# and g# are not indexed dynamically"},
    {"control-flow", "spec 3.1",
     "if/else/endif, loop/endloop, switch/case/endswitch balance"},
    {"resource-binding", "spec 1.1, 1.2",
     "every declared u# is bound to a matching resource"},
    {"memory-kind", "spec 1.1, 1.7",
     "an instruction targets a memory kind it supports"},
    {"store-mask", "spec 1.7",
     "store masks are .x, .xy, .xyz, .xyzw (typed: .xyzw)"},
    {"operand-width", "spec 1.2, 1.4",
     "addresses have enough components; atomic values one"},
    {"dispatch", "spec 1.8", "each group count <= 65535"},
    {"register-range", "spec 1.1, 1.8", "u# <= 63, g# < 8192"},
    {"opc-needs-counter", "spec 1.6",
     "_opc declares a UAV whose view has a counter"},
    {"ends-with-ret", "spec 3.1", "the program ends with ret"},
    {"case-literal", "FS 22.7", "case takes a scalar immediate"},
    {"expectation", "docs/case-format.md",
     "expectations name existing words, counters, atomics and threads"},
    {"stage", "spec 1.1, docs/pixel-stage.md P.1",
     "cs_5_0 has no v#, discard or derivatives; ps_5_0 has no thread "
     "group, g#, sync or compute system values"},
    {"pixel-input", "docs/pixel-stage.md P.2",
     "v# declared once each: position (linear noperspective), sampleIndex "
     "or primitive_id (constant, .x); read within the declared mask"},
    {"draw", "docs/pixel-stage.md P.1",
     "a ps_5_0 case has a [draw] (framebuffer 1..64 square, 1 or 4 samples, "
     "1..16 triangles with clear margins) and no [dispatch]; a cs_5_0 case "
     "no [draw]"},
};
static_assert(std::size(kRules) == static_cast<size_t>(RuleId::kDraw) + 1);

const Rule& RuleOf(RuleId id);

// Reports a violation of `id` at `line` (column 1).
void Violation(DiagnosticSink& sink, RuleId id, int line, std::string expected,
               std::string found);

// Checks that need the control-flow structure (control_flow_check.cc).
void CheckControlFlow(const Program& program, DiagnosticSink& sink);

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_VALIDATION_RULES_H_
