#include "fuzz/generate/operand_builder.h"

#include <algorithm>

namespace atomfuzz::fuzz {
namespace {

using isa::Operand;
using isa::Role;
using isa::Selection;

uint8_t Component(Choices& choices) {
  return static_cast<uint8_t>(choices.Below(4));
}

// An in-bounds multiple of 4 below `bytes` (0 when empty).
uint32_t AlignedBelow(Choices& choices, uint64_t bytes) {
  if (bytes < 4) return 0;
  return static_cast<uint32_t>(4 * choices.Below(bytes / 4));
}

uint32_t Clamp32(uint64_t v) {
  return static_cast<uint32_t>(std::min<uint64_t>(v, UINT32_MAX));
}

// A byte offset into `bytes` bytes: in bounds first (a draw of 0 stays
// simple), then the edges of spec 1.3.
uint32_t EdgeByteOffset(Choices& choices, uint64_t bytes) {
  switch (choices.Below(8)) {
    case 0:
    case 1:
    case 2: return AlignedBelow(choices, bytes);
    case 3: return bytes >= 4 ? Clamp32(bytes - 4) : 0;  // last valid word
    case 4: return Clamp32(bytes);                       // first OOB byte
    case 5:  // misaligned by 1..3 (poison)
      return AlignedBelow(choices, bytes) +
             static_cast<uint32_t>(1 + choices.Below(3));
    case 6: return 0xfffffffcu;
    default: return EdgeValue(choices);
  }
}

// An index below `n` mostly; else n - 1, n (first out of bounds), or huge.
uint32_t EdgeIndex(Choices& choices, uint32_t n) {
  switch (choices.Below(6)) {
    case 0:
    case 1:
    case 2: return n == 0 ? 0 : Clamp32(choices.Below(n));
    case 3: return n == 0 ? 0 : n - 1;
    case 4: return n;
    default: return EdgeValue(choices);
  }
}

// A structured byte offset: in bounds, stride - 4, the stride itself (the
// offset overflows: poison, spec 1.3), or misaligned.
uint32_t EdgeStructOffset(Choices& choices, uint32_t stride) {
  switch (choices.Below(6)) {
    case 0:
    case 1:
    case 2: return AlignedBelow(choices, stride);
    case 3: return stride >= 4 ? stride - 4 : 0;
    case 4: return stride;
    default:
      return AlignedBelow(choices, stride) +
             static_cast<uint32_t>(1 + choices.Below(3));
  }
}

Operand TempSource1(Choices& choices, const CaseFacts& f) {
  return isa::Temp(static_cast<uint32_t>(choices.Below(f.temps)),
                   Selection::kSelect1, Component(choices));
}

// A declared system value, or nullopt when none is declared.
std::optional<std::pair<isa::RegFile, uint8_t>> PickInput(Choices& choices,
                                                          const CaseFacts& f) {
  std::vector<std::pair<isa::RegFile, uint8_t>> usable;
  for (const auto& in : f.inputs) {
    if (in.second != 0) usable.push_back(in);
  }
  if (usable.empty()) return std::nullopt;
  return usable[choices.Below(usable.size())];
}

// A component set in `mask` (non-zero).
uint8_t ComponentIn(Choices& choices, uint8_t mask) {
  std::vector<uint8_t> comps;
  for (uint8_t c = 0; c < 4; ++c) {
    if (mask & (1u << c)) comps.push_back(c);
  }
  return comps[choices.Below(comps.size())];
}

}  // namespace

uint32_t EdgeValue(Choices& choices) {
  static constexpr uint32_t kEdges[] = {
      0,          1,          0x7fffffff, 0x80000000, 0xffffffff,
      2,          0x7ffffffe, 0x80000001, 0xfffffffe, 0x0000ffff,
      0x00010000, 0x55555555, 0xaaaaaaaa,
  };
  const uint64_t k = choices.Below(std::size(kEdges) + 2);
  if (k < std::size(kEdges)) return kEdges[k];
  return k == std::size(kEdges) ? static_cast<uint32_t>(choices.Below(64))
                                : choices.Word();
}

std::array<uint32_t, 4> EdgeCoordinates(Choices& choices,
                                        const MemoryFacts& m) {
  std::array<uint32_t, 4> a = {0, 0, 0, 0};
  switch (m.kind) {
    case isa::kUavRaw:
    case isa::kTgsmRaw: a[0] = EdgeByteOffset(choices, m.bytes); break;
    case isa::kUavStructured:
    case isa::kTgsmStructured:
      a[0] = EdgeIndex(choices, m.count);
      a[1] = EdgeStructOffset(choices, m.stride);
      break;
    default:
      for (int k = 0; k < AddressWidth(m) && k < 3; ++k) {
        a[static_cast<size_t>(k)] =
            EdgeIndex(choices, m.extent[static_cast<size_t>(k)]);
      }
      break;
  }
  return a;
}

Operand ScalarSource(Choices& choices, const CaseFacts& f) {
  const uint64_t k = choices.Below(4);
  if (k == 1 && f.temps > 0) return TempSource1(choices, f);
  if (k == 2) {
    if (auto in = PickInput(choices, f)) {
      Operand o;
      o.file = in->first;
      o.selection = Selection::kSelect1;
      o.swizzle = {ComponentIn(choices, in->second), 0, 0, 0};
      return o;
    }
  }
  return isa::Imm(EdgeValue(choices));
}

Operand VectorSource(Choices& choices, const CaseFacts& f) {
  const uint64_t k = choices.Below(3);
  if (k == 1 && f.temps > 0) {
    return isa::TempSwizzle(static_cast<uint32_t>(choices.Below(f.temps)),
                            {Component(choices), Component(choices),
                             Component(choices), Component(choices)});
  }
  if (k == 2) {
    if (auto in = PickInput(choices, f)) {
      Operand o;
      o.file = in->first;
      o.selection = Selection::kSwizzle;
      for (uint8_t& c : o.swizzle) c = ComponentIn(choices, in->second);
      return o;
    }
  }
  return isa::Imm4(EdgeValue(choices), EdgeValue(choices), EdgeValue(choices),
                   EdgeValue(choices));
}

Operand ReturnDest(Choices& choices, const CaseFacts& f) {
  if (f.temps == 0 || choices.Below(8) == 7) return Operand{};  // null
  return isa::Temp(static_cast<uint32_t>(choices.Below(f.temps)),
                   Selection::kMask,
                   static_cast<uint8_t>(1u << Component(choices)));
}

Operand AddressFor(Choices& choices, const CaseFacts& f, const MemoryFacts& m) {
  const int width = AddressWidth(m);
  if (f.temps > 0 && choices.Below(5) == 4) {
    if (width == 1) return TempSource1(choices, f);
    return isa::TempSwizzle(static_cast<uint32_t>(choices.Below(f.temps)),
                            {Component(choices), Component(choices),
                             Component(choices), Component(choices)});
  }
  const std::array<uint32_t, 4> a = EdgeCoordinates(choices, m);
  if (width == 1 && choices.Below(4) != 3) return isa::Imm(a[0]);
  return isa::Imm4(a[0], a[1], a[2], a[3]);
}

isa::OperandList AtomicOperands(Choices& choices, const CaseFacts& f,
                                isa::Op op, const MemoryFacts& m) {
  const isa::OpcodeInfo& row = isa::Info(op);
  isa::OperandList ops;
  for (int k = 0; k < row.operand_count(); ++k) {
    switch (row.operands[static_cast<size_t>(k)].role) {
      case Role::kReturn: ops.push_back(ReturnDest(choices, f)); break;
      case Role::kTarget: ops.push_back(m.reg); break;
      case Role::kAddress: ops.push_back(AddressFor(choices, f, m)); break;
      default: ops.push_back(ScalarSource(choices, f)); break;
    }
  }
  return ops;
}

isa::OperandList ConvertAtomicOperands(Choices& choices, const CaseFacts& f,
                                       const isa::Instruction& from,
                                       isa::Op to) {
  const isa::OpcodeInfo& old_row = from.info();
  const isa::OpcodeInfo& row = isa::Info(to);
  isa::OperandList ops;
  for (int k = 0; k < row.operand_count(); ++k) {
    const Role role = row.operands[static_cast<size_t>(k)].role;
    const int old = old_row.operand_with_role(role);
    if (old >= 0) {
      ops.push_back(from.operands[static_cast<size_t>(old)]);
    } else if (role == Role::kReturn) {
      ops.push_back(ReturnDest(choices, f));
    } else {
      ops.push_back(ScalarSource(choices, f));
    }
  }
  return ops;
}

namespace {

template <typename Pred>
std::vector<isa::Op> OpsWhere(Pred keep) {
  std::vector<isa::Op> v;
  for (const isa::OpcodeInfo& row : isa::AllOpcodes()) {
    if (keep(row)) v.push_back(row.op);
  }
  return v;
}

}  // namespace

const std::vector<isa::Op>& AtomicOps() {
  static const std::vector<isa::Op> ops =
      OpsWhere([](const isa::OpcodeInfo& row) { return row.is_atomic(); });
  return ops;
}

const std::vector<isa::Op>& AluOps() {
  static const std::vector<isa::Op> ops =
      OpsWhere([](const isa::OpcodeInfo& row) {
        return row.family == isa::Family::kAlu;
      });
  return ops;
}

}  // namespace atomfuzz::fuzz
