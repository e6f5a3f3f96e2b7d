// Reads one operand of a given kind from assembly text (spec 3.1).
#ifndef ATOMFUZZ_ISA_OPERAND_READER_H_
#define ATOMFUZZ_ISA_OPERAND_READER_H_

#include <optional>

#include "isa/diagnostics.h"
#include "isa/opcode_table.h"
#include "isa/operand.h"
#include "isa/text_cursor.h"

namespace atomfuzz::isa {

class OperandReader {
 public:
  OperandReader(TextCursor& cur, int line, DiagnosticSink& sink)
      : cur_(cur), line_(line), sink_(sink) {}

  // Reports a diagnostic and returns nullopt on error.
  std::optional<Operand> Read(OperandKind kind);

 private:
  std::optional<Operand> ReadRegister(OperandKind kind);
  std::optional<Operand> ReadImmediate();
  std::optional<Operand> ReadNumber();
  std::optional<Operand> ReadInputName();
  bool ReadBracketIndex(Operand& op, bool allow_relative);
  bool ReadMask(Operand& op);
  bool ReadSwizzle(Operand& op);
  std::nullopt_t Fail(std::string expected);
  bool Reject(std::string expected);
  std::nullopt_t FailAt(int col, std::string expected, std::string found);

  TextCursor& cur_;
  int line_;
  DiagnosticSink& sink_;
};

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_OPERAND_READER_H_
