#include "tests/targets/random_operands.h"

#include <bit>
#include <utility>

namespace atomfuzz::testutil {
namespace {

using isa::Op;
using isa::Operand;
using isa::OperandKind;
using isa::RegFile;
using isa::Role;
using isa::Selection;

constexpr RegFile kSystemValues[] = {
    RegFile::kThreadID, RegFile::kThreadGroupID, RegFile::kThreadIDInGroup,
    RegFile::kThreadIDInGroupFlattened};

}  // namespace

void OperandMaker::Emit(Op op, isa::OperandList operands) {
  isa::Instruction inst;
  inst.op = op;
  inst.operands = std::move(operands);
  code_.push_back(std::move(inst));
}

Operand OperandMaker::For(isa::OperandSpec spec, const DeclaredMemory* mem) {
  switch (spec.kind) {
    case OperandKind::kDst: return Dest(spec.role);
    case OperandKind::kSrc:
      if (mem != nullptr &&
          (spec.role == Role::kAddress || spec.role == Role::kStructIndex ||
           spec.role == Role::kByteOffset)) {
        return Address(Parts(*mem, spec.role));
      }
      return spec.role == Role::kCondition ? Condition() : Source();
    case OperandKind::kMem:
    case OperandKind::kMemDst:
    case OperandKind::kMemSrc:
    case OperandKind::kUav:
    case OperandKind::kTgsm: return MemoryOperand(*mem, spec.kind);
    default: return isa::Number(0);  // declarations are not drawn here
  }
}

uint32_t OperandMaker::WorkTemp() {
  if (dice_.PerMille(policy_.odd_register)) {
    return dice_.Chance(1, 4) ? 0xFFFFFFFFu : temps_ - 1 + dice_.Below(4);
  }
  return dice_.Below(temps_ - 1);
}

Operand OperandMaker::Dest(Role role) {
  const uint32_t roll = dice_.Below(100);
  if ((role == Role::kSecondDest && roll < 50) || roll < 6) {
    Operand null;
    null.file = RegFile::kNull;
    return null;
  }
  Operand o = xsize_ > 0 && roll < 18
                  ? XRegister()
                  : isa::Temp(WorkTemp(), Selection::kMask, 0);
  o.selection = Selection::kMask;
  o.mask = dice_.Mask();
  return o;
}

Operand OperandMaker::Source() {
  const uint32_t roll = dice_.Below(100);
  Operand o;
  if (roll < 30) return Immediate();
  if (roll < 45) {
    o.file = dice_.Pick(kSystemValues);
  } else if (roll < 55 && xsize_ > 0) {
    o = XRegister();
  } else {  // now and then the loop counters' temp
    o = isa::Temp(dice_.Chance(1, 8) ? temps_ - 1 : WorkTemp(),
                  Selection::kNone, 0);
  }
  Swizzle(o);
  return o;
}

void OperandMaker::Swizzle(Operand& o) {
  if (dice_.Chance(2, 5)) {
    o.selection = Selection::kSelect1;
    o.swizzle = {static_cast<uint8_t>(dice_.Below(4)), 0, 0, 0};
  } else {
    o.selection = Selection::kSwizzle;
    for (uint8_t& c : o.swizzle) c = static_cast<uint8_t>(dice_.Below(4));
  }
}

Operand OperandMaker::Immediate() {
  auto value = [this] {
    const uint32_t roll = dice_.Below(3);
    return roll == 0   ? dice_.Pick(kInteresting)
           : roll == 1 ? dice_.Below(64)
                       : dice_.Next32();
  };
  if (dice_.Chance(1, 4)) {
    return isa::Imm4(value(), value(), value(), value());
  }
  return isa::Imm(value());
}

// x0[k] or x0[rN.c + k], k possibly past the end (or wild); now and then
// x1, which is never declared.
Operand OperandMaker::XRegister() {
  Operand o;
  o.file = RegFile::kIndexableTemp;
  o.index = dice_.PerMille(policy_.odd_register * 5) ? 1 : 0;
  o.offset = dice_.PerMille(policy_.odd_register) ? dice_.Pick(kWild)
                                                  : dice_.Below(xsize_ + 2);
  if (dice_.Chance(2, 5)) {
    o.relative =
        isa::RelativeIndex{WorkTemp(), static_cast<uint8_t>(dice_.Below(4))};
    if (dice_.Coin()) o.offset = 0;
  }
  return o;
}

Operand OperandMaker::FlatThread() {
  Operand o;
  o.file = RegFile::kThreadIDInGroupFlattened;
  o.selection = Selection::kSelect1;
  o.swizzle = {0, 0, 0, 0};  // as the assembler reads .x
  return o;
}

Operand OperandMaker::Condition() {
  const uint32_t roll = dice_.Below(10);
  if (roll < 4) {  // rT.c = (thread < k), (thread == k) or (thread & k)
    const uint32_t t = WorkTemp();
    const uint8_t c = static_cast<uint8_t>(dice_.Below(4));
    const uint32_t kind = dice_.Below(3);
    const Op op = kind == 0 ? Op::kULt : kind == 1 ? Op::kIEq : Op::kAnd;
    Emit(op, {isa::Temp(t, Selection::kMask, static_cast<uint8_t>(1u << c)),
              FlatThread(), isa::Imm(dice_.Range(0, 8))});
    return isa::Temp(t, Selection::kSelect1, c);
  }
  if (roll < 5) return isa::Imm(dice_.Coin() ? 0 : 1);
  Operand o = Source();
  if (o.file != RegFile::kImmediate) {
    o.selection = Selection::kSelect1;
    o.swizzle = {o.swizzle[0], 0, 0, 0};
  }
  return o;
}

// ---- Addresses ----

std::vector<OperandMaker::Part> OperandMaker::Parts(const DeclaredMemory& m,
                                                    Role role) {
  const bool raw = m.bit == isa::kUavRaw || m.bit == isa::kTgsmRaw;
  if (role == Role::kStructIndex) return {{m.elements, false}};
  if (role == Role::kByteOffset) return {{raw ? m.words * 4 : m.stride, true}};
  if (raw) return {{m.words * 4, true}};
  if (m.bit != isa::kUavTyped) return {{m.elements, false}, {m.stride, true}};
  std::vector<Part> parts;
  for (int i = 0; i < isa::TypedAddressWidth(m.dim); ++i) {
    parts.push_back({m.size[static_cast<size_t>(i)], false});
  }
  return parts;
}

uint32_t OperandMaker::InRange(Part p) {
  const uint32_t units = p.bytes ? p.bound / 4 : p.bound;
  const uint32_t v = units == 0 ? 0 : dice_.Below(units);
  return p.bytes ? v * 4 : v;
}

uint32_t OperandMaker::Wild(Part p) {
  switch (dice_.Below(4)) {
    case 0: return p.bound;
    case 1: return p.bound + (p.bytes ? 4 : 1);
    case 2: return dice_.Next32();
    default: return dice_.Pick(kWild);
  }
}

// In range, wild, whatever a register holds, or computed per thread.
Operand OperandMaker::Address(const std::vector<Part>& parts) {
  if (dice_.PerMille(policy_.register_address)) return Source();
  const bool wild = dice_.PerMille(policy_.wild_address);
  if (!wild && dice_.Coin()) return ThreadAddress(parts);
  std::array<uint32_t, 4> v = {0, 0, 0, 0};
  const size_t bad = dice_.Below(parts.size());
  for (size_t i = 0; i < parts.size(); ++i) {
    const bool miss = wild && (i == bad || dice_.Coin());
    v[i] = miss ? Wild(parts[i]) : InRange(parts[i]);
  }
  if (parts.size() == 1 && dice_.Coin()) return isa::Imm(v[0]);
  return isa::Imm4(v[0], v[1], v[2], v[3]);
}

// rT.i = (thread & mask) [<< 2] with the mask below the bound: in range, and
// a different word for different threads.
Operand OperandMaker::ThreadAddress(const std::vector<Part>& parts) {
  const uint32_t t = WorkTemp();
  for (size_t i = 0; i < parts.size(); ++i) {
    const uint32_t units = parts[i].bytes ? parts[i].bound / 4 : parts[i].bound;
    const uint32_t mask = units == 0 ? 0 : std::bit_floor(units) - 1;
    const uint8_t c = static_cast<uint8_t>(i);
    const Operand dst =
        isa::Temp(t, Selection::kMask, static_cast<uint8_t>(1u << c));
    Operand thread = FlatThread();
    if (dice_.Coin()) {
      thread.file = RegFile::kThreadID;
      thread.swizzle[0] = static_cast<uint8_t>(dice_.Below(3));
    }
    Emit(Op::kAnd, {dst, thread, isa::Imm(mask)});
    if (parts[i].bytes) {
      Emit(Op::kIShl, {dst, isa::Temp(t, Selection::kSelect1, c), isa::Imm(2)});
    }
  }
  if (parts.size() == 1) return isa::Temp(t, Selection::kSelect1, 0);
  return isa::TempSwizzle(t, {0, 1, 2, 3});
}

Operand OperandMaker::MemoryOperand(const DeclaredMemory& m, OperandKind kind) {
  const bool uav = kind == OperandKind::kUav ||
                   (kind != OperandKind::kTgsm && m.file == RegFile::kUav);
  Operand o = uav ? isa::Uav(m.slot) : isa::Tgsm(m.slot);
  if (dice_.PerMille(policy_.dynamic_index)) {
    o.relative = isa::RelativeIndex{WorkTemp(), 0};  // u0[r1.x + 0]: refused
  } else if (dice_.PerMille(policy_.dynamic_index)) {
    o.offset = dice_.Range(1, 3);  // u0[3]: parses, means u0
  }
  if (kind == OperandKind::kMemDst) {
    o.selection = Selection::kMask;
    o.mask = dice_.Mask();
  } else if (kind == OperandKind::kMemSrc) {
    Swizzle(o);
  }
  return o;
}

}  // namespace atomfuzz::testutil
