#include "fuzz/mutate/crossover.h"

#include <algorithm>
#include <map>
#include <vector>

#include "fuzz/generate/case_facts.h"
#include "fuzz/generate/operand_builder.h"

namespace atomfuzz::fuzz {
namespace {

using isa::Family;
using isa::Instruction;
using isa::Op;
using isa::Operand;
using isa::RegFile;

// The range of b's code to take: a whole block from an opener, else a run
// of up to 4 instructions that open or close nothing.
std::optional<std::pair<size_t, size_t>> PickPiece(const isa::Case& b,
                                                   const CaseFacts& f,
                                                   Choices& choices) {
  const std::optional<size_t> i = PickCode(choices, f);
  if (!i) return std::nullopt;
  const auto& code = b.shader.instructions;
  switch (code[*i].op) {
    case Op::kIfZ:
    case Op::kIfNz:
    case Op::kLoop:
    case Op::kSwitch:
      if (f.partner[*i] == SIZE_MAX) return std::nullopt;
      return std::make_pair(*i, f.partner[*i]);
    default: break;
  }
  size_t last = *i;
  const size_t want = *i + choices.Below(4);
  while (last < want && last + 1 < f.code_end() &&
         code[last + 1].info().family != Family::kControl) {
    ++last;
  }
  if (code[*i].info().family == Family::kControl) last = *i;
  return std::make_pair(*i, last);
}

// Moves a memory access of the piece onto a memory of `a` that supports it,
// preferring the same kind; false if `a` has none.
bool Retarget(Instruction& inst, const CaseFacts& fa, Choices& choices) {
  const isa::OpcodeInfo& row = inst.info();
  const int t = row.operand_with_role(isa::Role::kTarget);
  if (t < 0 || row.memories == 0) return true;
  Operand& target = inst.operands[static_cast<size_t>(t)];
  std::vector<const MemoryFacts*> fits;
  for (const MemoryFacts& m : fa.memories) {
    if (CanTarget(inst.op, m)) fits.push_back(&m);
  }
  if (fits.empty()) return false;
  const MemoryFacts& m = *fits[choices.Below(fits.size())];
  target.file = m.reg.file;
  target.index = m.reg.index;
  const int a = row.operand_with_role(isa::Role::kAddress);
  if (a >= 0 && row.is_atomic() &&
      inst.operands[static_cast<size_t>(a)].SourceWidth() < AddressWidth(m)) {
    inst.operands[static_cast<size_t>(a)] = AddressFor(choices, fa, m);
  }
  return true;
}

struct Needs {
  uint32_t temps = 0;
  std::map<RegFile, uint8_t> inputs;  // system value -> components read
  bool indexable = false;
};

void Note(const Operand& o, Needs& n) {
  if (o.file == RegFile::kTemp) n.temps = std::max(n.temps, o.index + 1);
  if (o.relative) n.temps = std::max(n.temps, o.relative->temp + 1);
  if (o.file == RegFile::kIndexableTemp) n.indexable = true;
  if (isa::IsSystemValue(o.file)) {
    uint8_t& used = n.inputs[o.file];
    for (int lane = 0; lane < o.SourceWidth(); ++lane) {
      used |= static_cast<uint8_t>(1u << o.Component(lane));
    }
  }
}

// Declares in `a` what the piece reads: more temps, system values and their
// components. Declarations go where a's declarations end.
void Declare(isa::Case& a, const CaseFacts& fa, const Needs& n) {
  auto& code = a.shader.instructions;
  if (n.temps > fa.temps) {
    if (fa.temps_decl) {
      code[*fa.temps_decl].operands[0].index = n.temps;
    } else {
      Instruction d;
      d.op = Op::kDclTemps;
      d.operands = {isa::Number(n.temps)};
      code.insert(code.begin() + static_cast<ptrdiff_t>(fa.code_begin), d);
    }
  }
  for (const auto& input : n.inputs) {
    const RegFile file =
        input.first;  // clang 14: no lambda capture of bindings
    const uint8_t used = input.second;
    const bool flat = file == RegFile::kThreadIDInGroupFlattened;
    auto it = std::find_if(code.begin(), code.end(), [&](const Instruction& i) {
      return i.op == Op::kDclInput && i.operands[0].file == file;
    });
    if (it != code.end()) {
      if (!flat) it->operands[0].mask |= used;
      continue;
    }
    Instruction d;
    d.op = Op::kDclInput;
    Operand o;
    o.file = file;
    if (!flat) {
      o.selection = isa::Selection::kMask;
      o.mask = used;
    }
    d.operands = {o};
    code.insert(code.begin() + static_cast<ptrdiff_t>(fa.code_begin), d);
  }
}

}  // namespace

bool SpliceCode(isa::Case& a, const isa::Case& b, Choices& choices) {
  const CaseFacts fb = GatherFacts(b);
  const auto piece_range = PickPiece(b, fb, choices);
  if (!piece_range) return false;
  const CaseFacts fa = GatherFacts(a);
  const auto& from = b.shader.instructions;
  std::vector<Instruction> piece(
      from.begin() + static_cast<ptrdiff_t>(piece_range->first),
      from.begin() + static_cast<ptrdiff_t>(piece_range->second + 1));
  Needs needs;
  for (Instruction& inst : piece) {
    if (!Retarget(inst, fa, choices)) return false;
    for (const Operand& o : inst.operands) Note(o, needs);
  }
  if (needs.indexable) return false;  // x# sizes would have to agree
  const std::optional<size_t> pos = PickInsertionPoint(choices, a.shader, fa);
  if (!pos) return false;
  auto& code = a.shader.instructions;
  code.insert(code.begin() + static_cast<ptrdiff_t>(*pos), piece.begin(),
              piece.end());
  Declare(a, fa, needs);  // before the code: `pos` stays right
  return true;
}

}  // namespace atomfuzz::fuzz
