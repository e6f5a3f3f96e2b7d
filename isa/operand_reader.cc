#include "isa/operand_reader.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "isa/spelling.h"

namespace atomfuzz::isa {
namespace {

// The decimal number after a register letter: "r12" -> 12. Digits only, so
// that r0x1 is not r1.
std::optional<uint32_t> RegisterNumber(absl::string_view word) {
  const absl::string_view digits = word.substr(1);
  if (digits.empty() ||
      digits.find_first_not_of("0123456789") != absl::string_view::npos) {
    return std::nullopt;
  }
  return ParseUnsigned(digits);
}

}  // namespace

std::nullopt_t OperandReader::Fail(std::string expected) {
  sink_.Error(line_, cur_.col(), std::move(expected), cur_.Found());
  return std::nullopt;
}

bool OperandReader::Reject(std::string expected) {
  Fail(std::move(expected));
  return false;
}

std::nullopt_t OperandReader::FailAt(int col, std::string expected,
                                     std::string found) {
  sink_.Error(line_, col, std::move(expected), std::move(found));
  return std::nullopt;
}

std::optional<Operand> OperandReader::Read(OperandKind kind) {
  if (kind == OperandKind::kNumber) return ReadNumber();
  if (kind == OperandKind::kInputName) return ReadInputName();
  if (cur_.AtEnd()) return Fail(RuleFor(kind).what);
  return ReadRegister(kind);
}

std::optional<Operand> OperandReader::ReadNumber() {
  const int col = cur_.col();
  const absl::string_view text = cur_.ReadNumberText();
  auto v = ParseUnsigned(text);
  if (!v) {
    return FailAt(col, "an unsigned number",
                  text.empty() ? cur_.Found() : Quote(text));
  }
  return Number(*v);
}

std::optional<Operand> OperandReader::ReadInputName() {
  const int col = cur_.col();
  const absl::string_view word = cur_.ReadIdentifier();
  auto name = InputNameFromSpelling(word);
  if (!name) {
    return FailAt(col, RuleFor(OperandKind::kInputName).what,
                  word.empty() ? cur_.Found() : Quote(word));
  }
  return Number(static_cast<uint32_t>(*name));
}

std::optional<Operand> OperandReader::ReadRegister(OperandKind kind) {
  const OperandKindRule rule = RuleFor(kind);
  const int col = cur_.col();
  const absl::string_view word = cur_.ReadIdentifier();
  if (word.empty()) return Fail(rule.what);
  Operand op;
  if (word == "l" && cur_.Peek() == '(') {
    if (!rule.immediate) return FailAt(col, rule.what, Quote("l("));
    std::optional<Operand> imm = ReadImmediate();
    if (imm && imm->value_count != 1 && imm->value_count != 4) {
      // Reported at the 'l', where the operand starts.
      return FailAt(col, "1 or 4 values in l(...)",
                    absl::StrCat(imm->value_count, " values"));
    }
    return imm;
  }
  if (word == "null") {
    if (!rule.null) return FailAt(col, rule.what, Quote(word));
    op.file = RegFile::kNull;
    return op;
  }
  if (auto sv = SystemValueFromName(word)) {
    if (!rule.sysval || kind == OperandKind::kInputPsDecl) {
      return FailAt(col, rule.what, Quote(word));
    }
    op.file = *sv;
    if (kind == OperandKind::kInputDecl) {
      if (cur_.Peek() == '.') {
        cur_.Consume('.');
        if (!ReadMask(op)) return std::nullopt;
        op.selection = Selection::kMask;
      }
      return op;
    }
    if (!cur_.Consume('.')) return Fail("'.' and a swizzle");
    if (!ReadSwizzle(op)) return std::nullopt;
    return op;
  }
  // r12, x3, u0, g1, v0: one letter and a decimal number.
  const char letter = word[0];
  auto number = RegisterNumber(word);
  const bool known = letter == 'r' || letter == 'x' || letter == 'u' ||
                     letter == 'g' || letter == 'v';
  if (!known || !number) {
    return FailAt(col, rule.what, Quote(word));
  }
  op.index = *number;
  switch (letter) {
    case 'r': op.file = RegFile::kTemp; break;
    case 'x': op.file = RegFile::kIndexableTemp; break;
    case 'u': op.file = RegFile::kUav; break;
    case 'v': op.file = RegFile::kInput; break;
    default: op.file = RegFile::kTgsm; break;
  }
  if (op.file == RegFile::kInput &&
      (!rule.sysval || kind == OperandKind::kInputDecl)) {
    return FailAt(col, rule.what, Quote(word));
  }
  if (kind == OperandKind::kInputPsDecl) {
    if (op.file != RegFile::kInput) return FailAt(col, rule.what, Quote(word));
    if (!cur_.Consume('.')) return Fail("'.' and a mask");
    op.selection = Selection::kMask;
    if (!ReadMask(op)) return std::nullopt;
    return op;
  }
  const bool is_temp =
      op.file == RegFile::kTemp || op.file == RegFile::kIndexableTemp;
  if ((is_temp && !rule.temps) || (op.file == RegFile::kUav && !rule.uav) ||
      (op.file == RegFile::kTgsm && !rule.tgsm) ||
      (kind == OperandKind::kIndexableTempDecl &&
       op.file != RegFile::kIndexableTemp)) {
    return FailAt(col, rule.what, Quote(word));
  }
  if (op.file == RegFile::kIndexableTemp) {
    if (!cur_.Consume('[')) return Fail("'[' after an x# register");
    if (!ReadBracketIndex(op, kind != OperandKind::kIndexableTempDecl)) {
      return std::nullopt;
    }
    if (kind == OperandKind::kIndexableTempDecl) return op;
  } else if (op.file != RegFile::kTemp && cur_.Peek() == '[') {
    // u0[r1.x + 0]: a dynamic index, representable so that the validator
    // can reject it with the rule's name (E-44).
    cur_.Consume('[');
    if (!ReadBracketIndex(op, true)) return std::nullopt;
  }
  switch (kind) {
    case OperandKind::kDst:
    case OperandKind::kMemDst:
      if (!cur_.Consume('.')) return Fail("'.' and a write mask");
      op.selection = Selection::kMask;
      if (!ReadMask(op)) return std::nullopt;
      break;
    case OperandKind::kSrc:
    case OperandKind::kMemSrc:
      if (!cur_.Consume('.')) return Fail("'.' and a swizzle");
      if (!ReadSwizzle(op)) return std::nullopt;
      break;
    default:
      if (cur_.Peek() == '.') {
        return Fail("no component suffix on this operand");
      }
      break;
  }
  return op;
}

// After '[': "N]", "r#.c]" or "r#.c + N]".
bool OperandReader::ReadBracketIndex(Operand& op, bool allow_relative) {
  const int col = cur_.col();
  const absl::string_view word = cur_.ReadIdentifier();
  if (!word.empty()) {
    auto reg = word[0] == 'r' ? RegisterNumber(word) : std::nullopt;
    if (!allow_relative || !reg) {
      FailAt(col, allow_relative ? "an index (N, r#.c or r#.c + N)" : "a size",
             Quote(word));
      return false;
    }
    if (!cur_.Consume('.')) return Reject("'.' and one component");
    const int ccol = cur_.col();
    const absl::string_view comp = cur_.ReadIdentifier();
    if (comp.size() != 1 || ComponentFromLetter(comp[0]) < 0) {
      FailAt(ccol, "one component letter (x, y, z, w)", Quote(comp));
      return false;
    }
    op.relative =
        RelativeIndex{*reg, static_cast<uint8_t>(ComponentFromLetter(comp[0]))};
    if (cur_.Consume(']')) return true;
    if (!cur_.Consume('+')) return Reject("'+' or ']'");
  }
  const int ncol = cur_.col();
  const absl::string_view num = cur_.ReadNumberText();
  auto n = ParseUnsigned(num);
  if (!n) {
    FailAt(ncol, "an unsigned number", num.empty() ? cur_.Found() : Quote(num));
    return false;
  }
  op.offset = *n;
  if (!cur_.Consume(']')) return Reject("']'");
  return true;
}

bool OperandReader::ReadMask(Operand& op) {
  const int col = cur_.col();
  const absl::string_view letters = cur_.ReadIdentifier();
  uint8_t mask = 0;
  int last = -1;
  for (char c : letters) {
    const int comp = ComponentFromLetter(c);
    if (comp <= last) {  // unknown letter, repeat, or out of xyzw order
      FailAt(col, "a write mask (letters of xyzw in order)", Quote(letters));
      return false;
    }
    last = comp;
    mask |= static_cast<uint8_t>(1u << comp);
  }
  if (mask == 0) {
    FailAt(col, "a write mask (letters of xyzw in order)", cur_.Found());
    return false;
  }
  op.mask = mask;
  return true;
}

bool OperandReader::ReadSwizzle(Operand& op) {
  const int col = cur_.col();
  const absl::string_view letters = cur_.ReadIdentifier();
  const bool ok_length = letters.size() == 1 || letters.size() == 4;
  std::array<uint8_t, 4> sw = {0, 0, 0, 0};
  bool ok_letters = ok_length;
  for (size_t i = 0; ok_letters && i < letters.size(); ++i) {
    const int comp = ComponentFromLetter(letters[i]);
    ok_letters = comp >= 0;
    if (ok_letters) sw[i] = static_cast<uint8_t>(comp);
  }
  if (!ok_letters) {
    FailAt(col, "a swizzle of 4 letters or 1 selected component (xyzw)",
           letters.empty() ? cur_.Found() : Quote(letters));
    return false;
  }
  op.selection =
      letters.size() == 1 ? Selection::kSelect1 : Selection::kSwizzle;
  op.swizzle = sw;
  return true;
}

// After "l"; the '(' is next. Any count from 1 to 4; the caller checks it.
std::optional<Operand> OperandReader::ReadImmediate() {
  cur_.Consume('(');
  Operand op;
  op.file = RegFile::kImmediate;
  int count = 0;
  do {
    const int col = cur_.col();
    const absl::string_view text = cur_.ReadNumberText();
    auto v = ParseLiteral(text);
    if (!v) {
      return FailAt(col, "a literal (decimal, 0x hex or float)",
                    text.empty() ? cur_.Found() : Quote(text));
    }
    if (count == 4) return FailAt(col, "')' after 4 values", Quote(text));
    op.values[static_cast<size_t>(count++)] = *v;
  } while (cur_.Consume(','));
  if (!cur_.Consume(')')) return Fail("',' or ')'");
  op.value_count = static_cast<uint8_t>(count);
  return op;
}

}  // namespace atomfuzz::isa
