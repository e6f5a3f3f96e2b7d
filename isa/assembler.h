// Reads fxc's cs_5_0 disassembly (spec 3) into a Program. Every error is
// reported as file:line:col: expected X, found Y; all of them, not just the
// first. Any bytes are safe input.
#ifndef ATOMFUZZ_ISA_ASSEMBLER_H_
#define ATOMFUZZ_ISA_ASSEMBLER_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "isa/diagnostics.h"
#include "isa/program.h"

namespace atomfuzz::isa {

// `first_line` is the line number of text's first line in `file` (case files
// embed the shader after a header).
absl::StatusOr<Program> Assemble(absl::string_view text,
                                 absl::string_view file = "<asm>",
                                 int first_line = 1);

// The same, reporting into a caller's sink (the case-file reader).
std::optional<Program> AssembleInto(absl::string_view text, int first_line,
                                    DiagnosticSink& sink);

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_ASSEMBLER_H_
