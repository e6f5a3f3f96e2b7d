#include "oracle/internal/decoded_program.h"

#include <algorithm>
#include <array>

#include "oracle/alu.h"

namespace atomfuzz::oracle {
namespace {

// The component a write mask names when it names exactly one, else -1.
// A table: std::has_single_bit, or mask & (mask - 1), compiles to a
// software popcount on baseline x86-64.
constexpr std::array<int8_t, 16> kOnlyLane = {-1, 0,  1,  -1, 2,  -1, -1, -1,
                                              3,  -1, -1, -1, -1, -1, -1, -1};

}  // namespace

DecodedProgram Decode(const isa::Program& program) {
  DecodedProgram p;
  Decode(program, p);
  return p;
}

void Decode(const isa::Program& program, DecodedProgram& p) {
  using isa::Op;
  const auto& code = program.instructions;
  // Resized, not assigned: each entry's fields are set below, its FlatAlu
  // only where it is used (alu_flat), which is most of an entry's bytes.
  p.code.resize(code.size());
  p.leading_decls = 0;
  p.atomic_count = 0;
  p.loaded_uavs.clear();
  p.loaded_tgsm.clear();
  p.temps = 0;
  // Room for all, cut to those found (no growth test per declaration).
  p.declarations.resize(code.size());
  size_t declarations = 0;
  for (uint32_t i = 0; i < code.size(); ++i) {
    const isa::Instruction& inst = code[i];
    DecodedInstruction& d = p.code[i];
    const isa::OpcodeInfo& info = inst.info();
    d.family = info.family;
    if (info.family == isa::Family::kLoad) {
      const int k = isa::Layout(inst.op).with_role(isa::Role::kTarget);
      const isa::Operand* mem =
          k >= 0 && static_cast<size_t>(k) < inst.operands.size()
              ? &inst.operands[static_cast<size_t>(k)]
              : nullptr;
      if (mem != nullptr && (mem->file == isa::RegFile::kUav ||
                             mem->file == isa::RegFile::kTgsm)) {
        std::vector<bool>& l =
            mem->file == isa::RegFile::kTgsm ? p.loaded_tgsm : p.loaded_uavs;
        if (l.size() <= mem->index) l.resize(size_t{mem->index} + 1, false);
        l[mem->index] = true;
      }
    }
    d.alu_sources = 0;
    d.alu_lane = -1;
    d.alu_counted = 0;
    d.alu_flat = false;
    d.atomic_ordinal = info.is_atomic() ? p.atomic_count++ : UINT32_MAX;
    if (d.family == isa::Family::kDecl) {
      if (p.leading_decls == i) ++p.leading_decls;
      p.declarations[declarations++] = i;
    }
    if (inst.op == Op::kDclTemps) p.temps = inst.operands[0].index;
    if (d.family == isa::Family::kAlu) {
      const size_t dsts =
          static_cast<size_t>(isa::Layout(inst.op).destinations());
      d.alu_sources = static_cast<uint8_t>(std::min<size_t>(
          inst.operands.size() - std::min(dsts, inst.operands.size()), 4));
      d.alu_counted = static_cast<uint8_t>(alu_internal::Sources(inst.op));
      if (dsts == 1 && !inst.operands.empty()) {
        d.alu_lane = kOnlyLane[inst.operands[0].mask & 0xFu];
      }
    }
  }
  p.declarations.resize(declarations);
  // The flat forms need the temp count, which a declaration anywhere sets.
  for (uint32_t i = 0; i < code.size(); ++i) {
    DecodedInstruction& d = p.code[i];
    if (d.family != isa::Family::kAlu || d.alu_lane < 0) continue;
    d.flat = FlatAlu{};  // as FlatAlu::Of expects
    d.alu_flat = FlatAlu::Of(code[i], d.alu_lane, d.alu_sources, d.alu_counted,
                             size_t{p.temps} * 4, d.flat);
  }
}

}  // namespace atomfuzz::oracle
