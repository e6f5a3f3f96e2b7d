#include "isa/diagnostics.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace atomfuzz::isa {

std::string Diagnostic::Render() const {
  std::string s = absl::StrFormat("%s:%d:%d: expected %s, found %s", file, line,
                                  col, expected, found);
  if (!rule.empty()) absl::StrAppend(&s, " [", rule, "]");
  return s;
}

void DiagnosticSink::Error(int line, int col, std::string expected,
                           std::string found, std::string rule) {
  ++error_count_;
  if (diagnostics_.size() >= kMaxDiagnostics) return;
  diagnostics_.push_back(Diagnostic{file_, line, col, std::move(expected),
                                    std::move(found), std::move(rule)});
}

absl::Status DiagnosticSink::ToStatus() const {
  if (diagnostics_.empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrJoin(
      diagnostics_, "\n",
      [](std::string* out, const Diagnostic& d) { out->append(d.Render()); }));
}

std::string Quote(absl::string_view text) {
  constexpr size_t kMaxShown = 40;
  std::string out = "'";
  for (size_t i = 0; i < text.size() && i < kMaxShown; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f && c != '\'') {
      out.push_back(static_cast<char>(c));
    } else {
      absl::StrAppend(&out, absl::StrFormat("\\x%02x", c));
    }
  }
  if (text.size() > kMaxShown) out += "...";
  out += "'";
  return out;
}

}  // namespace atomfuzz::isa
