// Writes a Program in one canonical fxc-style form (spec 3). For every
// program p, Assemble(Print(p)) == p; Print(Assemble(t)) is a fixed point.
#ifndef ATOMFUZZ_ISA_PRINTER_H_
#define ATOMFUZZ_ISA_PRINTER_H_

#include <string>

#include "isa/program.h"

namespace atomfuzz::isa {

// The whole program, "cs_5_0" first, one instruction a line, blocks indented
// by two spaces, ending with a newline.
std::string Print(const Program& program);
// One instruction without indentation or newline.
std::string PrintInstruction(const Instruction& inst);
std::string PrintOperand(const Operand& op);

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_PRINTER_H_
