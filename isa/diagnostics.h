// Errors in user input, rendered GCC-style so editors can jump to them:
//   file:line:col: expected X, found Y
#ifndef ATOMFUZZ_ISA_DIAGNOSTICS_H_
#define ATOMFUZZ_ISA_DIAGNOSTICS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace atomfuzz::isa {

struct Diagnostic {
  std::string file;
  int line = 0;
  int col = 0;
  std::string expected;
  std::string found;
  std::string
      rule;  // validator rule id and spec section, e.g. "E-24, spec 1.1"

  std::string Render() const;
};

// Collects every diagnostic of one parse or validation (the assembler reports
// them all; decoders stop at the first).
class DiagnosticSink {
 public:
  explicit DiagnosticSink(std::string file) : file_(std::move(file)) {}

  void Error(int line, int col, std::string expected, std::string found,
             std::string rule = "");
  bool empty() const { return error_count_ == 0; }
  // Every error reported, those dropped past kMaxDiagnostics included.
  size_t error_count() const { return error_count_; }
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  const std::string& file() const { return file_; }
  // InvalidArgument carrying every diagnostic, one a line; OK when empty.
  absl::Status ToStatus() const;

  // Past this many, further errors are dropped (a garbage file must not
  // produce megabytes of output).
  static constexpr size_t kMaxDiagnostics = 100;

 private:
  std::string file_;
  std::vector<Diagnostic> diagnostics_;
  size_t error_count_ = 0;
};

// 'text' quoted for a message, with control and non-ASCII bytes escaped and
// long text cut short.
std::string Quote(absl::string_view text);

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_DIAGNOSTICS_H_
