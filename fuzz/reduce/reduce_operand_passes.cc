// constant-sources: a register or system-value source becomes an immediate
// (0, then 1). Generated code computes addresses and values from thread ids
// through several temps; once the sources that matter are constants, the
// instructions that fed them are dead and drop-instructions removes them.
#include "fuzz/reduce/reduce_passes.h"
#include "isa/opcode_table.h"

namespace atomfuzz::fuzz {
namespace {

bool IsRegisterSource(const isa::OperandSpec& spec, const isa::Operand& op) {
  return spec.kind == isa::OperandKind::kSrc &&
         op.file != isa::RegFile::kImmediate;
}

}  // namespace

uint64_t RegisterSources(const isa::Program& p) {
  uint64_t n = 0;
  for (size_t i = FirstBodyInstruction(p); i < p.instructions.size(); ++i) {
    const isa::Instruction& inst = p.instructions[i];
    const isa::OpcodeInfo& row = inst.info();
    for (size_t o = 0; o < inst.operands.size() && o < row.operands.size();
         ++o) {
      n += IsRegisterSource(row.operands[o], inst.operands[o]);
    }
  }
  return n;
}

std::vector<ReduceEdit> ConstantSourceEdits(const isa::Case& c) {
  std::vector<ReduceEdit> edits;
  const auto& list = c.shader.instructions;
  for (size_t i = FirstBodyInstruction(c.shader); i < list.size(); ++i) {
    const isa::OpcodeInfo& row = list[i].info();
    for (size_t o = 0; o < list[i].operands.size() && o < row.operands.size();
         ++o) {
      const isa::Operand& op = list[i].operands[o];
      if (!IsRegisterSource(row.operands[o], op)) continue;
      const bool scalar = op.SourceWidth() == 1;
      for (uint32_t v : {0u, 1u}) {
        edits.push_back([i, o, v, scalar](isa::Case& k) {
          k.shader.instructions[i].operands[o] =
              scalar ? isa::Imm(v) : isa::Imm4(v, v, v, v);
          return true;
        });
      }
    }
  }
  return edits;
}

}  // namespace atomfuzz::fuzz
