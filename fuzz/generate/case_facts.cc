#include "fuzz/generate/case_facts.h"

#include <algorithm>
#include <limits>

#include "absl/container/inlined_vector.h"
#include "isa/blocks.h"

namespace atomfuzz::fuzz {
namespace {

using isa::Family;
using isa::Instruction;
using isa::Op;

constexpr size_t kNone = std::numeric_limits<size_t>::max();

MemoryFacts UavFacts(const isa::Case& c, const Instruction& dcl, size_t at) {
  MemoryFacts m;
  m.reg = isa::Uav(dcl.operands[0].index);
  m.decl = at;
  const isa::Resource* r = c.FindResource(m.reg.index);
  switch (dcl.op) {
    case Op::kDclUavRaw:
      m.kind = isa::kUavRaw;
      if (r != nullptr) m.bytes = uint64_t{r->words} * 4;
      break;
    case Op::kDclUavStructured:
      m.kind = isa::kUavStructured;
      m.stride = dcl.operands[1].index;
      if (r != nullptr) {
        m.count = r->elements;
        m.bytes = uint64_t{r->stride} * r->elements;
        m.counter = r->counter.has_value();
      }
      break;
    default:
      m.kind = isa::kUavTyped;
      m.dim = dcl.dim;
      if (r != nullptr) m.extent = r->size;
      for (isa::ReturnType t : dcl.types) {
        if (t != isa::ReturnType::kUint && t != isa::ReturnType::kSint) {
          m.atomics_ok = false;
        }
      }
      break;
  }
  return m;
}

MemoryFacts TgsmFacts(const Instruction& dcl, size_t at) {
  MemoryFacts m;
  m.reg = isa::Tgsm(dcl.operands[0].index);
  m.decl = at;
  if (dcl.op == Op::kDclTgsmRaw) {
    m.kind = isa::kTgsmRaw;
    m.bytes = dcl.operands[1].index;
  } else {
    m.kind = isa::kTgsmStructured;
    m.stride = dcl.operands[1].index;
    m.count = dcl.operands[2].index;
    m.bytes = uint64_t{m.stride} * m.count;
  }
  return m;
}

void GatherDeclaration(const isa::Case& c, const Instruction& i, size_t at,
                       CaseFacts& f) {
  switch (i.op) {
    case Op::kDclTemps:
      f.temps = i.operands[0].index;
      f.temps_decl = at;
      break;
    case Op::kDclThreadGroup: f.thread_group_decl = at; break;
    case Op::kDclInput: {
      const isa::RegFile file = i.operands[0].file;
      f.inputs.emplace_back(file,
                            file == isa::RegFile::kThreadIDInGroupFlattened
                                ? uint8_t{1}
                                : i.operands[0].mask);
      break;
    }
    case Op::kDclUavRaw:
    case Op::kDclUavStructured:
    case Op::kDclUavTyped: f.memories.push_back(UavFacts(c, i, at)); break;
    case Op::kDclTgsmRaw:
    case Op::kDclTgsmStructured: f.memories.push_back(TgsmFacts(i, at)); break;
    default: break;
  }
}

// Fills `partner` from isa's pairing; leaves it all kNone when the blocks
// do not balance.
void MatchBlocks(const isa::Program& p, CaseFacts& f) {
  const auto& code = p.instructions;
  f.partner.assign(code.size(), kNone);
  // Every mutation gathers facts: the pairing's room is kept.
  thread_local isa::BlockPairs pairs;
  if (!isa::PairBlocks(p, pairs).ok()) return;
  for (const uint32_t i : pairs.members) {
    switch (code[i].info().block) {
      case isa::BlockShape::kOpen: f.partner[i] = pairs.close[i]; break;
      case isa::BlockShape::kMiddle:
      case isa::BlockShape::kLabel: f.partner[i] = pairs.next[i]; break;
      case isa::BlockShape::kClose: f.partner[i] = pairs.opener[i]; break;
      default: break;
    }
  }
}

}  // namespace

const MemoryFacts* CaseFacts::Find(const isa::Operand& reg) const {
  for (const MemoryFacts& m : memories) {
    if (m.reg.file == reg.file && m.reg.index == reg.index) return &m;
  }
  return nullptr;
}

uint8_t CaseFacts::InputMask(isa::RegFile file) const {
  for (const auto& [f, mask] : inputs) {
    if (f == file) return mask;
  }
  return 0;
}

CaseFacts GatherFacts(const isa::Case& c) {
  CaseFacts f;
  // One allocation each instead of growing: four system values, and the
  // UAVs and g# of a typical case.
  f.inputs.reserve(4);
  f.memories.reserve(c.resources.size() + 4);
  const auto& code = c.shader.instructions;
  f.code_begin = code.size();
  for (size_t i = 0; i < code.size(); ++i) {
    if (code[i].info().family != Family::kDecl) {
      f.code_begin = std::min(f.code_begin, i);
      continue;
    }
    GatherDeclaration(c, code[i], i, f);
  }
  MatchBlocks(c.shader, f);
  return f;
}

int AddressWidth(const MemoryFacts& m) {
  switch (m.kind) {
    case isa::kUavRaw:
    case isa::kTgsmRaw: return 1;
    case isa::kUavTyped: return std::max(1, isa::TypedAddressWidth(m.dim));
    default: return 2;
  }
}

bool CanTarget(isa::Op op, const MemoryFacts& m) {
  const isa::OpcodeInfo& row = isa::Info(op);
  if ((row.memories & m.kind) == 0) return false;
  if (row.is_atomic() && m.kind == isa::kUavTyped && !m.atomics_ok) {
    return false;
  }
  if (row.family == Family::kCounter) return m.counter;
  return true;
}

std::optional<std::pair<size_t, size_t>> DeletionRange(const isa::Program& p,
                                                       const CaseFacts& f,
                                                       size_t i) {
  const auto& code = p.instructions;
  if (i < f.code_begin || i + 1 >= code.size()) return std::nullopt;
  const size_t other = f.partner[i];
  switch (code[i].op) {
    case Op::kIfZ:
    case Op::kIfNz:
    case Op::kLoop:
    case Op::kSwitch:
      if (other == kNone) return std::nullopt;
      return std::make_pair(i, other);
    case Op::kEndIf:
    case Op::kEndLoop:
    case Op::kEndSwitch:
      if (other == kNone) return std::nullopt;
      return std::make_pair(other, i);
    case Op::kElse:
    case Op::kCase:
    case Op::kDefault:
      if (other == kNone) return std::nullopt;
      return std::make_pair(i, other - 1);
    default: return std::make_pair(i, i);
  }
}

bool IsInsertionPoint(const isa::Program& p, const CaseFacts& f, size_t pos) {
  if (pos < f.code_begin || pos >= p.instructions.size()) return false;
  return pos == 0 || p.instructions[pos - 1].op != Op::kSwitch;
}

std::optional<size_t> PickCode(Choices& choices, const CaseFacts& f) {
  if (f.code_begin >= f.code_end()) return std::nullopt;
  return f.code_begin + choices.Below(f.code_end() - f.code_begin);
}

std::optional<size_t> PickInsertionPoint(Choices& choices,
                                         const isa::Program& p,
                                         const CaseFacts& f) {
  if (f.code_begin > f.code_end() || p.instructions.empty()) {
    return std::nullopt;
  }
  const size_t pos =
      f.code_begin + choices.Below(f.code_end() - f.code_begin + 1);
  if (!IsInsertionPoint(p, f, pos)) return std::nullopt;
  return pos;
}

}  // namespace atomfuzz::fuzz
