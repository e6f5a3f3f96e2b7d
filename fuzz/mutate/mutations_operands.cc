// Mutations of one operand: immediates, addresses, registers, targets.
#include <vector>

#include "fuzz/generate/case_facts.h"
#include "fuzz/generate/operand_builder.h"
#include "fuzz/mutate/mutations.h"

namespace atomfuzz::fuzz {
namespace {

using isa::Instruction;
using isa::Operand;
using isa::OperandKind;
using isa::RegFile;
using isa::Role;
using isa::Selection;

struct Site {
  size_t inst = 0;
  size_t operand = 0;
};

// Every operand of the code for which `want` holds.
template <typename Pred>
std::vector<Site> Sites(const isa::Case& c, const CaseFacts& f, Pred want) {
  std::vector<Site> sites;
  const auto& code = c.shader.instructions;
  for (size_t i = f.code_begin; i < code.size(); ++i) {
    const isa::OpcodeInfo& row = code[i].info();
    for (size_t k = 0; k < code[i].operands.size(); ++k) {
      if (want(code[i], row.operands[k], code[i].operands[k])) {
        sites.push_back({i, k});
      }
    }
  }
  return sites;
}

const MemoryFacts* TargetOf(const Instruction& inst, const CaseFacts& f) {
  const int t = inst.info().operand_with_role(Role::kTarget);
  if (t < 0) return nullptr;
  return f.Find(inst.operands[static_cast<size_t>(t)]);
}

uint32_t NewValue(Choices& choices, const Policy& policy, uint32_t v) {
  switch (choices.Below(6)) {
    case 0: return EdgeValue(choices);
    case 1: return v + 1;
    case 2: return v - 1;
    case 3: return v ^ (1u << choices.Below(32));
    case 4: return 0u - v;
    default: {
      const auto& values = policy.interesting_values;
      return values.empty() ? v : values[choices.Below(values.size())];
    }
  }
}

// A new source of the same width (1 or 4 components).
Operand SameWidthSource(Choices& choices, const CaseFacts& f,
                        const Operand& o) {
  return o.SourceWidth() == 1 ? ScalarSource(choices, f)
                              : VectorSource(choices, f);
}

bool ChangeSource(Operand& o, const Instruction& inst, Choices& choices,
                  const CaseFacts& f) {
  if (o.file == RegFile::kTemp && choices.Below(3) == 0) {
    o.index = static_cast<uint32_t>(choices.Below(f.temps));
    return true;
  }
  const uint8_t declared =
      o.file == RegFile::kTemp ? uint8_t{0xF} : f.InputMask(o.file);
  if ((o.file == RegFile::kTemp || isa::IsSystemValue(o.file)) &&
      declared != 0 && choices.Below(2) == 0) {
    std::vector<uint8_t> comps;
    for (uint8_t k = 0; k < 4; ++k) {
      if (declared & (1u << k)) comps.push_back(k);
    }
    if (o.selection == Selection::kSelect1) {
      o.swizzle[0] = comps[choices.Below(comps.size())];
    } else {
      for (uint8_t& s : o.swizzle) s = comps[choices.Below(comps.size())];
    }
    return true;
  }
  o = SameWidthSource(choices, f, o);
  return true;
}

bool ChangeDest(Operand& o, const Instruction& inst, size_t k, Choices& choices,
                const CaseFacts& f) {
  // dst0 of an immediate or counter atomic has one component (spec 1.5).
  const bool dst0 = inst.info().returns_old() && k == 0;
  if (o.file == RegFile::kNull || (dst0 && choices.Below(4) == 0)) {
    o = ReturnDest(choices, f);
    return true;
  }
  if (o.file != RegFile::kTemp || f.temps == 0) return false;
  if (choices.Below(2) == 0) {
    o.index = static_cast<uint32_t>(choices.Below(f.temps));
  } else if (dst0) {
    o.mask = static_cast<uint8_t>(1u << choices.Below(4));
  } else {
    o.mask = static_cast<uint8_t>(1 + choices.Below(15));
  }
  return true;
}

}  // namespace

bool ChangeImmediate(isa::Case& c, Choices& choices, const Policy& policy) {
  const CaseFacts f = GatherFacts(c);
  const std::vector<Site> sites = Sites(
      c, f, [](const Instruction&, const isa::OperandSpec&, const Operand& o) {
        return o.file == RegFile::kImmediate;
      });
  if (sites.empty()) return false;
  const Site s = sites[choices.Below(sites.size())];
  Operand& o = c.shader.instructions[s.inst].operands[s.operand];
  const size_t lane = choices.Below(o.value_count);
  o.values[lane] = NewValue(choices, policy, o.values[lane]);
  return true;
}

bool ChangeAddress(isa::Case& c, Choices& choices, const Policy& policy) {
  const CaseFacts f = GatherFacts(c);
  const std::vector<Site> sites = Sites(
      c, f,
      [&](const Instruction& inst, const isa::OperandSpec& spec,
          const Operand&) {
        return (spec.role == Role::kAddress || spec.role == Role::kByteOffset ||
                spec.role == Role::kStructIndex) &&
               TargetOf(inst, f) != nullptr;
      });
  if (sites.empty()) return false;
  const Site s = sites[choices.Below(sites.size())];
  Instruction& inst = c.shader.instructions[s.inst];
  const MemoryFacts& m = *TargetOf(inst, f);
  Operand& o = inst.operands[s.operand];
  const Role role = inst.info().operands[s.operand].role;
  if (role == Role::kAddress && inst.info().is_atomic()) {
    const bool structured = AddressWidth(m) == 2 && m.kind != isa::kUavTyped;
    const size_t lane = structured ? 1 : 0;
    if (o.file == RegFile::kImmediate && lane < o.value_count &&
        m.kind != isa::kUavTyped && choices.Below(3) == 0) {
      o.values[lane] += static_cast<uint32_t>(1 + choices.Below(3));  // 6.B
    } else {
      o = AddressFor(choices, f, m);
    }
    return true;
  }
  const std::array<uint32_t, 4> a = EdgeCoordinates(choices, m);
  if (role == Role::kAddress) {
    o = isa::Imm4(a[0], a[1], a[2], a[3]);
  } else if (role == Role::kStructIndex) {
    o = isa::Imm(a[0]);
  } else {  // byte offset: of a raw access, or inside a structure
    const bool structured =
        m.kind == isa::kUavStructured || m.kind == isa::kTgsmStructured;
    o = isa::Imm(structured ? a[1] : a[0]);
  }
  return true;
}

bool ChangeRegister(isa::Case& c, Choices& choices, const Policy& policy) {
  const CaseFacts f = GatherFacts(c);
  const std::vector<Site> sites = Sites(
      c, f,
      [](const Instruction&, const isa::OperandSpec& spec, const Operand& o) {
        if (spec.kind == OperandKind::kDst) {
          return o.file == RegFile::kTemp || o.file == RegFile::kNull;
        }
        return spec.kind == OperandKind::kSrc && !o.relative &&
               o.file != RegFile::kIndexableTemp;
      });
  if (sites.empty()) return false;
  const Site s = sites[choices.Below(sites.size())];
  Instruction& inst = c.shader.instructions[s.inst];
  Operand& o = inst.operands[s.operand];
  if (inst.info().operands[s.operand].kind == OperandKind::kDst) {
    return ChangeDest(o, inst, s.operand, choices, f);
  }
  return ChangeSource(o, inst, choices, f);
}

bool RetargetMemory(isa::Case& c, Choices& choices, const Policy& policy) {
  const CaseFacts f = GatherFacts(c);
  std::vector<size_t> accesses;
  const auto& code = c.shader.instructions;
  for (size_t i = f.code_begin; i < code.size(); ++i) {
    if (TargetOf(code[i], f) != nullptr && !code[i].indexable) {
      accesses.push_back(i);
    }
  }
  if (accesses.empty()) return false;
  Instruction& inst =
      c.shader.instructions[accesses[choices.Below(accesses.size())]];
  const MemoryFacts& from = *TargetOf(inst, f);
  std::vector<const MemoryFacts*> to;
  for (const MemoryFacts& m : f.memories) {
    if (&m != &from && CanTarget(inst.op, m)) to.push_back(&m);
  }
  if (to.empty()) return false;
  const MemoryFacts& m = *to[choices.Below(to.size())];
  const isa::OpcodeInfo& row = inst.info();
  Operand& target =
      inst.operands[static_cast<size_t>(row.operand_with_role(Role::kTarget))];
  target.file = m.reg.file;  // keeps a load's swizzle, a store's mask
  target.index = m.reg.index;
  const int a = row.operand_with_role(Role::kAddress);
  if (a >= 0 && row.is_atomic() &&
      (AddressWidth(m) != AddressWidth(from) || choices.Below(2) == 0)) {
    inst.operands[static_cast<size_t>(a)] = AddressFor(choices, f, m);
  }
  return true;
}

}  // namespace atomfuzz::fuzz
