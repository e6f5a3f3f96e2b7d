// Statements that touch memory or compute: atomics of every kind (spec 1.4,
// 1.5), counters (1.6), loads and stores (1.7), and ALU arithmetic. Operands
// are laid out by the opcode table's roles, never by a switch on the op
// (style guide 7.1).
#include <vector>

#include "fuzz/generate/generator_internal.h"
#include "fuzz/generate/operand_builder.h"

namespace atomfuzz::fuzz::gen {

using isa::Family;
using isa::Op;
using isa::OpcodeInfo;
using isa::Operand;
using isa::Role;

namespace {

Operand MemoryOperand(const Target& t, isa::Selection sel, uint8_t mask) {
  Operand o = t.tgsm ? isa::Tgsm(t.slot) : isa::Uav(t.slot);
  o.selection = sel;
  if (sel == isa::Selection::kMask) o.mask = mask;
  if (sel == isa::Selection::kSwizzle) o.swizzle = {0, 0, 0, 0};
  return o;
}

// The row of `family` (a load or a store) that serves this memory.
const OpcodeInfo* RowFor(Family family, uint8_t memory_bit) {
  for (const OpcodeInfo& row : isa::AllOpcodes()) {
    if (row.family == family && (row.memories & memory_bit) != 0) return &row;
  }
  return nullptr;
}

// Operands by role; the opcode table puts them in order (style guide 7.1).
struct RoleOperands {
  Operand dest, target, address, index, offset, comparand, value;
};

isa::OperandList ByRole(const OpcodeInfo& row, const RoleOperands& r) {
  isa::OperandList ops;
  ops.reserve(static_cast<size_t>(row.operand_count()));
  for (int k = 0; k < row.operand_count(); ++k) {
    switch (row.operands[static_cast<size_t>(k)].role) {
      case Role::kDest:
      case Role::kReturn: ops.push_back(r.dest); break;
      case Role::kTarget: ops.push_back(r.target); break;
      case Role::kAddress: ops.push_back(r.address); break;
      case Role::kStructIndex: ops.push_back(r.index); break;
      case Role::kByteOffset: ops.push_back(r.offset); break;
      case Role::kComparand: ops.push_back(r.comparand); break;
      default: ops.push_back(r.value); break;  // kValue
    }
  }
  return ops;
}

bool Legal(const OpcodeInfo& row, const Target& t,
           std::optional<isa::Rmw> counter) {
  if ((row.memories & t.memory_bit()) == 0) return false;
  return !counter || t.counter == counter;
}

}  // namespace

Target* Builder::PickTarget(uint8_t memory_bits,
                            std::optional<isa::Rmw> counter) {
  absl::InlinedVector<uint32_t, 8> w(targets_.size(), 0);
  Target* first = nullptr;
  for (size_t i = 0; i < targets_.size(); ++i) {
    const Target& t = targets_[i];
    if ((memory_bits & t.memory_bit()) == 0 ||
        (counter && t.counter != counter))
      continue;
    if (first == nullptr) first = &targets_[i];
    w[i] = p_.memory_weights[static_cast<size_t>(t.kind)];
  }
  if (first == nullptr) return nullptr;
  const size_t k = c_.Weighted(w);
  return w[k] == 0 ? first : &targets_[k];
}

// The atomics only, in table order: the same draw as weighing every opcode
// with 0 for the rest, at a fifth of the work (seeds must keep their cases).
std::optional<Op> Builder::PickAtomicOp() {
  const std::vector<Op>& ops = AtomicOps();
  // Every memory kind some target is, gathered once: only counters, which
  // also need that target's counter op, look at the targets one by one.
  uint8_t memories = 0;
  for (const Target& t : targets_) memories |= t.memory_bit();
  std::array<uint32_t, isa::kOpCount> w{};
  bool any = false;
  for (size_t k = 0; k < ops.size(); ++k) {
    const OpcodeInfo& row = isa::Info(ops[k]);
    const bool legal = row.family == Family::kCounter
                           ? std::any_of(targets_.begin(), targets_.end(),
                                         [&](const Target& t) {
                                           return Legal(row, t, row.rmw);
                                         })
                           : (row.memories & memories) != 0;
    if (!legal) continue;
    w[k] = p_.op_weights[static_cast<size_t>(row.op)];
    any = any || w[k] != 0;
  }
  if (!any) return std::nullopt;
  return ops[c_.Weighted(absl::MakeConstSpan(w.data(), ops.size()))];
}

std::optional<Op> Builder::PickAtomicOpFor(uint8_t memory_bit) {
  const std::vector<Op>& ops = AtomicOps();
  std::array<uint32_t, isa::kOpCount> w{};
  bool any = false;
  for (size_t k = 0; k < ops.size(); ++k) {
    const OpcodeInfo& row = isa::Info(ops[k]);
    if (row.family == Family::kCounter || (row.memories & memory_bit) == 0) {
      continue;
    }
    w[k] = p_.op_weights[static_cast<size_t>(row.op)];
    any = any || w[k] != 0;
  }
  if (!any) return std::nullopt;
  return ops[c_.Weighted(absl::MakeConstSpan(w.data(), ops.size()))];
}

AddressClass Builder::PickAddressClass(const Target& t) {
  std::array<uint32_t, kAddressClassCount> w =
      t.tgsm ? p_.tgsm_address_weights : p_.uav_address_weights;
  auto off = [&](AddressClass c) { w[static_cast<size_t>(c)] = 0; };
  if (!t.structured()) {
    off(AddressClass::kIndexWrap32);
    off(AddressClass::kOffsetPastStride);
  }
  if (t.typed()) off(AddressClass::kMisaligned);
  bool safe = false;
  for (const Result& r : results_) safe = safe || r.safe;
  if (!safe) off(AddressClass::kFromReturn);
  return static_cast<AddressClass>(Pick(w));
}

void Builder::Atomic() {
  const std::optional<Op> op = PickAtomicOp();
  if (!op) return;
  const OpcodeInfo& row = isa::Info(*op);
  const bool counter = row.family == Family::kCounter;
  Target* t =
      PickTarget(row.memories, counter ? std::optional(row.rmw) : std::nullopt);
  if (counter) return CounterAtomic(*op, *t);
  ++salt_;
  const AddressClass cls = PickAddressClass(*t);
  const bool has_cmp = row.operand_with_role(Role::kComparand) >= 0;
  const auto cmp_cls =
      has_cmp ? static_cast<ComparandClass>(Pick(p_.comparand_weights))
              : ComparandClass::kValue;
  const Address a =
      BuildAddress(*t, cls, cmp_cls == ComparandClass::kMatchesInit);
  EmitAtomic(*op, *t, a, cmp_cls);
}

void Builder::EmitAtomic(Op op, Target& t, const Address& a,
                         ComparandClass cmp_cls) {
  const OpcodeInfo& row = isa::Info(op);
  const bool has_cmp = row.operand_with_role(Role::kComparand) >= 0;
  ValueOperand v =
      Value(row.rmw, static_cast<ValueClass>(Pick(p_.value_weights)), kX);
  Operand cmp;
  if (has_cmp) {
    cmp = Comparand(t, a, v, cmp_cls);
    // E-5: a swapped translation is caught only if the two differ.
    if (cmp == v.operand && v.operand.file == isa::RegFile::kImmediate) {
      v.operand.values[0] = ~v.operand.values[0];
    }
  }
  const int result = row.family == Family::kImmAtomic ? NewResult() : -1;
  RoleOperands r;  // dst0 null (E-9) when there is no result slot
  if (result >= 0) r.dest = Dst(results_[result].reg, results_[result].comp);
  const std::optional<Operand> alias =
      result >= 0 ? AliasDst0(a, v) : std::nullopt;
  if (alias) r.dest = Dst(alias->index, alias->swizzle[0]);
  r.target = MemoryOperand(t, isa::Selection::kNone, 0);
  r.address = a.operand;
  r.comparand = cmp;
  r.value = v.operand;
  Emit(op, ByRole(row, r));
  if (alias) {
    Emit(Op::kMov, {Dst(results_[result].reg, results_[result].comp), *alias});
  }
  if (result >= 0) {
    // Defined where every thread ran it in bounds: usable as an address.
    results_[result].safe =
        a.in_bounds && Everywhere() && (!t.tgsm || t.tgsm_initialized);
  }
}

// E-8: dst0 sometimes is the scratch register the address or the value is
// read from, so the sources must be read before dst0 is written; a mov then
// takes the result to its slot.
std::optional<Operand> Builder::AliasDst0(const Address& a,
                                          const ValueOperand& v) {
  if (!Chance(p_.dst0_alias_per_mille)) return std::nullopt;
  for (const Operand* from : {&a.operand, &v.operand}) {
    if (from->file == isa::RegFile::kTemp &&
        (from->index == kAddr || from->index == kVal)) {
      return Src(from->index, from->swizzle[0]);
    }
  }
  return std::nullopt;
}

// Counters (spec 1.6): the returned index, and sometimes a record stored at
// it, as append/consume buffers are used.
void Builder::CounterAtomic(Op op, Target& t) {
  const int result = NewResult();
  const Operand dst =
      result < 0 ? Operand{} : Dst(results_[result].reg, results_[result].comp);
  Emit(op, {dst, isa::Uav(t.slot)});
  if (result < 0) return;
  results_[result].safe = Everywhere();
  if (!Chance(p_.append_store_per_mille)) return;
  ++salt_;
  const ValueOperand v = Value(
      isa::Rmw::kExch, static_cast<ValueClass>(Pick(p_.value_weights)), kX);
  Emit(Op::kStoreStructured,
       {MemoryOperand(t, isa::Selection::kMask, 1),
        Src(results_[result].reg, results_[result].comp),
        isa::Imm(4 * c_.InRange(0, t.stride_words() - 1)), v.operand});
}

void Builder::Load() {
  Target* t = PickTarget(isa::kAllMemories, std::nullopt);
  const OpcodeInfo* row = t ? RowFor(Family::kLoad, t->memory_bit()) : nullptr;
  if (row == nullptr) return;
  const Address a = BuildAddress(*t, PickAddressClass(*t), false);
  const int result = NewResult();
  if (result < 0) return;
  EmitLoad(*t, a, Dst(results_[result].reg, results_[result].comp));
  results_[result].safe = false;  // a load may race (spec 2.4)
}

void Builder::EmitLoad(const Target& t, const Address& a, Operand dest) {
  const OpcodeInfo* row = RowFor(Family::kLoad, t.memory_bit());
  RoleOperands r;
  r.dest = dest;
  r.target = MemoryOperand(t, isa::Selection::kSwizzle, 0);
  r.address = a.operand;
  r.index = a.index;
  r.offset = t.structured() ? a.offset : a.index;
  Emit(row->op, ByRole(*row, r));
}

void Builder::Store() {
  Target* t = PickTarget(isa::kAllMemories, std::nullopt);
  const OpcodeInfo* row = t ? RowFor(Family::kStore, t->memory_bit()) : nullptr;
  if (row == nullptr) return;
  ++salt_;
  const Address a = BuildAddress(*t, PickAddressClass(*t), false);
  uint8_t mask = 1;
  if (t->typed()) {
    mask = 0xf;  // spec 1.7: typed stores write .xyzw
  } else if (Chance(p_.wide_store_per_mille)) {
    mask = static_cast<uint8_t>((1u << c_.InRange(2, 4)) - 1);
  }
  const auto cls = static_cast<ValueClass>(Pick(p_.value_weights));
  Operand value;
  if (mask != 1 && !t->typed()) {
    // Several words: four constants, or four ids of the thread.
    value = cls == ValueClass::kConstant || cls == ValueClass::kRandom
                ? isa::Imm4(InterestingValue(), InterestingValue(),
                            InterestingValue(), c_.Word())
                : Swizzle(kIds, {kZ, kX, kY, kZ});
  } else {
    value = Value(isa::Rmw::kExch, cls, kX).operand;
    if (mask != 1 && value.file != isa::RegFile::kImmediate) {
      const uint8_t c = value.swizzle[0];  // typed: the texel's .x counts
      value = Swizzle(value.index, {c, c, c, c});
    }
  }
  RoleOperands r;
  r.target = MemoryOperand(*t, isa::Selection::kMask, mask);
  r.address = a.operand;
  r.index = a.index;
  r.offset = t->structured() ? a.offset : a.index;
  r.value = value;
  Emit(row->op, ByRole(*row, r));
}

// Integer arithmetic on ids, constants and returned values; its result is
// stored with the others, so the ALU is compared too.
void Builder::Alu() {
  // Like PickAtomicOp: the ALU rows alone draw what the whole table did.
  // With every weight 0 both give the first, mov.
  const std::vector<Op>& alu = AluOps();
  std::array<uint32_t, isa::kOpCount> w{};
  for (size_t k = 0; k < alu.size(); ++k) {
    w[k] = p_.op_weights[static_cast<size_t>(alu[k])];
  }
  const OpcodeInfo& row =
      isa::Info(alu[c_.Weighted(absl::MakeConstSpan(w.data(), alu.size()))]);
  isa::OperandList ops;
  ops.reserve(static_cast<size_t>(row.operand_count()));
  std::vector<int> written;
  for (int k = 0; k < row.operand_count(); ++k) {
    if (row.operands[static_cast<size_t>(k)].kind == isa::OperandKind::kDst) {
      // imul/umul: two destinations, never the same component (the order
      // of their writes is not the point here).
      int r = NewResult();
      if (!written.empty() && r == written.front()) r = -1;
      ops.push_back(r < 0 ? Operand{} : Dst(results_[r].reg, results_[r].comp));
      if (r >= 0) written.push_back(r);
      continue;
    }
    switch (static_cast<ValueClass>(Pick(p_.value_weights))) {
      case ValueClass::kConstant:
        ops.push_back(isa::Imm(InterestingValue()));
        break;
      case ValueClass::kRandom: ops.push_back(isa::Imm(c_.Word())); break;
      case ValueClass::kFromReturn:
        if (const Result* r = PickResult(false)) {
          ops.push_back(Src(r->reg, r->comp));
          break;
        }
        [[fallthrough]];
      default: ops.push_back(Id()); break;
    }
  }
  Emit(row.op, std::move(ops));
  for (int r : written) results_[static_cast<size_t>(r)].safe = false;
}

}  // namespace atomfuzz::fuzz::gen
