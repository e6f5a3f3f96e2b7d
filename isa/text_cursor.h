// A cursor over one line of text with 1-based columns, shared by the
// assembler and the case-file reader.
#ifndef ATOMFUZZ_ISA_TEXT_CURSOR_H_
#define ATOMFUZZ_ISA_TEXT_CURSOR_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"

namespace atomfuzz::isa {

class TextCursor {
 public:
  explicit TextCursor(absl::string_view line) : text_(line) {}

  void SkipSpace();
  bool AtEnd();  // after skipping spaces
  char Peek();   // after skipping spaces; '\0' at the end
  // Consumes `c` (after spaces) if it is next.
  bool Consume(char c);
  // Consumes `word` if it is next and not followed by an identifier char.
  bool ConsumeWord(absl::string_view word);
  // [A-Za-z_][A-Za-z0-9_]*, or empty.
  absl::string_view ReadIdentifier();
  // Characters up to the next space, ',' or ')', for numbers and literals.
  absl::string_view ReadNumberText();
  // The rest of the line, trimmed.
  absl::string_view Rest();

  // What the next token looks like, for "found X" in messages.
  std::string Found();
  int col() const { return static_cast<int>(pos_) + 1; }
  size_t pos() const { return pos_; }

 private:
  absl::string_view text_;
  size_t pos_ = 0;
};

bool IsIdentStart(char c);
bool IsIdentChar(char c);

// Unsigned decimal or 0x hex that fits in 32 bits.
std::optional<uint32_t> ParseUnsigned(absl::string_view text);
// Decimal (optionally negative, >= -2^31), 0x hex, or a float in any form fxc
// prints (0.500000, 1.#INF00, -1.#QNAN0), as a 32-bit pattern.
std::optional<uint32_t> ParseLiteral(absl::string_view text);
// Canonical, lossless spelling: decimal when |s32| < 2^16, hex otherwise.
std::string FormatLiteral(uint32_t value);
// The same, appended to `out`.
void AppendLiteral(std::string& out, uint32_t value);

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_TEXT_CURSOR_H_
