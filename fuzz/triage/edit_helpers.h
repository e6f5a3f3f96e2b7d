// Small pieces the generalisation edits (generalise_edits.h,
// memory_conversion.h) build cases from: fresh registers, instructions,
// one-component operands, declarations. Internal to fuzz/triage.
#ifndef ATOMFUZZ_FUZZ_TRIAGE_EDIT_HELPERS_H_
#define ATOMFUZZ_FUZZ_TRIAGE_EDIT_HELPERS_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "isa/case_file.h"

namespace atomfuzz::fuzz::edit {

// An aligned raw address past any view (spec 1.2: skipped, E-12).
inline constexpr uint32_t kRawOutOfBounds = 0xfffffffc;

// Index of the first instruction that is no declaration.
size_t CodeBegin(const isa::Program& p);
// A register no instruction uses yet: dcl_temps grows by one (or appears);
// `inserted` counts instructions added before the code.
uint32_t FreshTemp(isa::Program& p, size_t& inserted);
isa::Instruction Make(isa::Op op, std::initializer_list<isa::Operand> operands);
// r`temp`.c as a destination (mask) and as a source (one component).
isa::Operand Dst(uint32_t temp, int component);
isa::Operand Src(uint32_t temp, int component);
// Component `k` of a source operand, as a one-component source.
isa::Operand ComponentOf(const isa::Operand& a, int k);
// The instruction's first operand with this role, or null.
const isa::Operand* WithRole(const isa::Instruction& i, isa::Role r);
bool Names(const isa::Operand& o, isa::RegFile file, uint32_t slot);
// The declaration of u`slot` or g`slot`, or null.
isa::Instruction* DeclOf(isa::Program& p, isa::RegFile file, uint32_t slot);
// Declares `file` (vThreadID, vThreadGroupID) with all three components.
void DeclareInput(isa::Program& p, isa::RegFile file);
// Component `k` of a declared input, as a one-component source.
isa::Operand InputComponent(isa::RegFile file, int k);
// `c` without its expectations (an edit changes what they would be).
isa::Case Stripped(const isa::Case& c);

}  // namespace atomfuzz::fuzz::edit

#endif  // ATOMFUZZ_FUZZ_TRIAGE_EDIT_HELPERS_H_
