#include "fuzz/triage/edit_helpers.h"

namespace atomfuzz::fuzz::edit {

using isa::Instruction;
using isa::Op;
using isa::Operand;
using isa::RegFile;
using isa::Role;
using isa::Selection;

size_t CodeBegin(const isa::Program& p) {
  size_t i = 0;
  while (i < p.instructions.size() &&
         p.instructions[i].info().family == isa::Family::kDecl)
    ++i;
  return i;
}

// A register no instruction uses yet: dcl_temps grows by one (or appears).
// `inserted` counts instructions added before the code.
uint32_t FreshTemp(isa::Program& p, size_t& inserted) {
  for (Instruction& d : p.instructions) {
    if (d.op == Op::kDclTemps && !d.operands.empty()) {
      return d.operands[0].index++;
    }
  }
  Instruction d;
  d.op = Op::kDclTemps;
  d.operands = {isa::Number(1)};
  p.instructions.insert(
      p.instructions.begin() + static_cast<std::ptrdiff_t>(CodeBegin(p)), d);
  ++inserted;
  return 0;
}

Instruction Make(Op op, std::initializer_list<Operand> operands) {
  Instruction i;
  i.op = op;
  i.operands.assign(operands.begin(), operands.end());
  return i;
}

Operand Dst(uint32_t temp, int component) {
  return isa::Temp(temp, Selection::kMask,
                   static_cast<uint8_t>(1u << component));
}
Operand Src(uint32_t temp, int component) {
  return isa::Temp(temp, Selection::kSelect1, static_cast<uint8_t>(component));
}

// Component `k` of a source operand, as a one-component source.
Operand ComponentOf(const Operand& a, int k) {
  if (a.file == RegFile::kImmediate)
    return isa::Imm(a.values[a.value_count == 1 ? 0 : static_cast<size_t>(k)]);
  Operand o = a;
  o.selection = Selection::kSelect1;
  o.swizzle = {a.Component(k), 0, 0, 0};
  return o;
}

const Operand* WithRole(const Instruction& i, Role r) {
  const int k = i.info().operand_with_role(r);
  return k < 0 || static_cast<size_t>(k) >= i.operands.size()
             ? nullptr
             : &i.operands[static_cast<size_t>(k)];
}

bool Names(const Operand& o, RegFile file, uint32_t slot) {
  return o.file == file && o.index == slot;
}

// The declaration of u`slot` or g`slot`.
Instruction* DeclOf(isa::Program& p, RegFile file, uint32_t slot) {
  for (Instruction& d : p.instructions) {
    if (d.info().family != isa::Family::kDecl) continue;
    const Operand* declared = WithRole(d, Role::kDeclared);
    if (declared != nullptr && Names(*declared, file, slot)) return &d;
  }
  return nullptr;
}

// Declares `file` (vThreadID, vThreadGroupID) with all three components.
void DeclareInput(isa::Program& p, RegFile file) {
  for (Instruction& d : p.instructions) {
    if (d.op == Op::kDclInput && !d.operands.empty() &&
        d.operands[0].file == file) {
      d.operands[0].mask |= 0x7;
      return;
    }
  }
  Operand in;
  in.file = file;
  in.selection = Selection::kMask;
  in.mask = 0x7;
  p.instructions.insert(
      p.instructions.begin() + static_cast<std::ptrdiff_t>(CodeBegin(p)),
      Make(Op::kDclInput, {in}));
}

Operand InputComponent(RegFile file, int k) {
  Operand o;
  o.file = file;
  o.selection = Selection::kSelect1;
  o.swizzle = {static_cast<uint8_t>(k), 0, 0, 0};
  return o;
}

isa::Case Stripped(const isa::Case& c) {
  isa::Case v = c;
  v.expect_words.clear();
  v.expect_counters.clear();
  v.expect_returns.clear();
  return v;
}

}  // namespace atomfuzz::fuzz::edit
