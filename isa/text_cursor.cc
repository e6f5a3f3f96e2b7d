#include "isa/text_cursor.h"

#include <bit>
#include <cstdlib>
#include <string>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "isa/diagnostics.h"

namespace atomfuzz::isa {

bool IsIdentStart(char c) { return absl::ascii_isalpha(c) || c == '_'; }
bool IsIdentChar(char c) { return absl::ascii_isalnum(c) || c == '_'; }

void TextCursor::SkipSpace() {
  while (pos_ < text_.size() &&
         (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\r')) {
    ++pos_;
  }
}

bool TextCursor::AtEnd() {
  SkipSpace();
  return pos_ >= text_.size();
}

char TextCursor::Peek() {
  SkipSpace();
  return pos_ < text_.size() ? text_[pos_] : '\0';
}

bool TextCursor::Consume(char c) {
  if (AtEnd() || text_[pos_] != c) return false;
  ++pos_;
  return true;
}

bool TextCursor::ConsumeWord(absl::string_view word) {
  SkipSpace();
  if (text_.substr(pos_, word.size()) != word) return false;
  const size_t end = pos_ + word.size();
  if (end < text_.size() && IsIdentChar(text_[end])) return false;
  pos_ = end;
  return true;
}

absl::string_view TextCursor::ReadIdentifier() {
  SkipSpace();
  if (pos_ >= text_.size() || !IsIdentStart(text_[pos_])) return {};
  const size_t start = pos_;
  while (pos_ < text_.size() && IsIdentChar(text_[pos_])) ++pos_;
  return text_.substr(start, pos_ - start);
}

absl::string_view TextCursor::ReadNumberText() {
  SkipSpace();
  const size_t start = pos_;
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (c == ' ' || c == '\t' || c == ',' || c == ')' || c == '(' || c == ']' ||
        c == '[' || c == '}' || c == '{' || c == '\r') {
      break;
    }
    ++pos_;
  }
  return text_.substr(start, pos_ - start);
}

absl::string_view TextCursor::Rest() {
  SkipSpace();
  absl::string_view rest = text_.substr(pos_);
  pos_ = text_.size();
  while (!rest.empty() &&
         (rest.back() == ' ' || rest.back() == '\t' || rest.back() == '\r')) {
    rest.remove_suffix(1);
  }
  return rest;
}

std::string TextCursor::Found() {
  if (AtEnd()) return "end of line";
  const size_t start = pos_;
  size_t end = start;
  if (IsIdentChar(text_[start]) || text_[start] == '-') {
    end = start + 1;
    while (end < text_.size() && (IsIdentChar(text_[end]) ||
                                  text_[end] == '.' || text_[end] == '#')) {
      ++end;
    }
  } else {
    end = start + 1;
  }
  return Quote(text_.substr(start, end - start));
}

std::optional<uint32_t> ParseUnsigned(absl::string_view text) {
  if (text.empty()) return std::nullopt;
  uint64_t v = 0;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    absl::string_view digits = text.substr(2);
    if (digits.size() > 8) {
      // Leading zeros are fine; value must still fit.
      while (digits.size() > 8 && digits[0] == '0') digits.remove_prefix(1);
      if (digits.size() > 8) return std::nullopt;
    }
    for (char c : digits) {
      if (!absl::ascii_isxdigit(c)) return std::nullopt;
    }
    if (!absl::SimpleHexAtoi(digits, &v)) return std::nullopt;
  } else {
    for (char c : text) {
      if (!absl::ascii_isdigit(c)) return std::nullopt;
    }
    // Leading zeros are fine here too (as for hex); the value must fit.
    while (text.size() > 1 && text[0] == '0') text.remove_prefix(1);
    if (text.size() > 10 || !absl::SimpleAtoi(text, &v)) return std::nullopt;
  }
  if (v > 0xFFFFFFFFull) return std::nullopt;
  return static_cast<uint32_t>(v);
}

namespace {

std::optional<uint32_t> ParseSpecialFloat(absl::string_view body,
                                          bool negative) {
  // fxc (MSVC printf): 1.#INF00, 1.#QNAN0, 1.#IND00, 1.#SNAN0 (spec 3.1). The
  // tag may be padded with digits, nothing else.
  static constexpr std::pair<absl::string_view, uint32_t> kTags[] = {
      {"1.#INF", 0x7F800000u},
      {"1.#QNAN", 0x7FC00000u},
      {"1.#IND", 0x7FC00000u},
      {"1.#SNAN", 0x7F800001u},
  };
  for (const auto& [tag, bits] : kTags) {
    if (body.substr(0, tag.size()) != tag) continue;
    for (char c : body.substr(tag.size())) {
      if (!absl::ascii_isdigit(c)) return std::nullopt;
    }
    return (negative ? 0x80000000u : 0u) | bits;
  }
  return std::nullopt;
}

std::optional<uint32_t> ParseFloat(absl::string_view text) {
  // Digits, one '.', optional exponent; nothing else (strtof alone would also
  // take "nan", "inf" and hex floats, which fxc never prints).
  bool seen_dot = false, seen_digit = false, seen_exp = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (absl::ascii_isdigit(c)) {
      seen_digit = true;
    } else if (c == '.' && !seen_dot && !seen_exp) {
      seen_dot = true;
    } else if ((c == 'e' || c == 'E') && seen_digit && !seen_exp) {
      seen_exp = true;
      if (i + 1 < text.size() && (text[i + 1] == '+' || text[i + 1] == '-'))
        ++i;
      if (i + 1 >= text.size()) return std::nullopt;
    } else {
      return std::nullopt;
    }
  }
  if (!seen_digit || (!seen_dot && !seen_exp)) return std::nullopt;
  const std::string copy(text);
  char* end = nullptr;
  const float f = std::strtof(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size()) return std::nullopt;
  return std::bit_cast<uint32_t>(f);
}

}  // namespace

std::optional<uint32_t> ParseLiteral(absl::string_view text) {
  if (text.empty()) return std::nullopt;
  const bool negative = text[0] == '-';
  const absl::string_view body = negative ? text.substr(1) : text;
  if (body.empty()) return std::nullopt;
  if (body.find('#') != absl::string_view::npos) {
    return ParseSpecialFloat(body, negative);
  }
  if (auto u = ParseUnsigned(body)) {
    if (!negative) return u;
    if (*u > 0x80000000u) return std::nullopt;  // below -2^31
    return static_cast<uint32_t>(0u - *u);
  }
  if (auto f = ParseFloat(body)) return negative ? (*f ^ 0x80000000u) : *f;
  return std::nullopt;
}

std::string FormatLiteral(uint32_t value) {
  std::string out;
  AppendLiteral(out, value);
  return out;
}

void AppendLiteral(std::string& out, uint32_t value) {
  const int32_t s = static_cast<int32_t>(value);
  if (s > -65536 && s < 65536) {
    absl::StrAppend(&out, s);
    return;
  }
  // 0x%08x, without a format string to parse (the printer writes many).
  constexpr char kHex[] = "0123456789abcdef";
  char hex[10] = {'0', 'x'};
  for (int k = 0; k < 8; ++k) hex[2 + k] = kHex[(value >> (28 - 4 * k)) & 0xF];
  out.append(hex, sizeof(hex));
}

}  // namespace atomfuzz::isa
