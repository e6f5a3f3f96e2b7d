#include "fuzz/triage/generalise_edits.h"

#include <algorithm>
#include <bit>
#include <utility>

#include "fuzz/runner.h"
#include "fuzz/triage/edit_helpers.h"
#include "isa/validator.h"

namespace atomfuzz::fuzz {
namespace {

using edit::CodeBegin;
using edit::Dst;
using edit::FreshTemp;
using edit::InputComponent;
using edit::Make;
using edit::Src;
using edit::Stripped;
using edit::WithRole;
using isa::Instruction;
using isa::Op;
using isa::Operand;
using isa::RegFile;
using isa::Role;
using isa::Selection;

bool IsBinaryAtomic(const isa::OpcodeInfo& row) {
  return (row.family == isa::Family::kAtomic ||
          row.family == isa::Family::kImmAtomic) &&
         row.rmw != isa::Rmw::kCmpExch;
}

}  // namespace

std::vector<size_t> AtomicInstructions(const isa::Program& p) {
  std::vector<size_t> out;
  for (size_t i = 0; i < p.instructions.size(); ++i) {
    if (p.instructions[i].info().is_atomic()) out.push_back(i);
  }
  return out;
}

std::vector<Op> OpcodeAlternatives(const Instruction& atomic) {
  const isa::OpcodeInfo& from = atomic.info();
  std::vector<Op> out;
  for (const isa::OpcodeInfo& row : isa::AllOpcodes()) {
    if (row.op == from.op || !row.is_atomic()) continue;
    if (from.family == isa::Family::kCounter) {
      if (row.family == isa::Family::kCounter) out.push_back(row.op);
      continue;
    }
    if (row.family == isa::Family::kCounter) continue;
    // A compare becomes any operation (its comparand dropped); an operation
    // does not become a compare (no comparand to give it).
    if (IsBinaryAtomic(row) || from.rmw == isa::Rmw::kCmpExch)
      out.push_back(row.op);
  }
  return out;
}

std::optional<isa::Case> WithOpcode(const isa::Case& c, size_t at, Op op) {
  if (at >= c.shader.instructions.size()) return std::nullopt;
  isa::Case v = Stripped(c);
  size_t inserted = 0;
  const Instruction before = v.shader.instructions[at];
  const isa::OpcodeInfo& to = isa::Info(op);
  isa::OperandList operands;
  std::optional<uint32_t> fresh;
  for (int k = 0; k < to.operand_count(); ++k) {
    const Role role = to.operands[static_cast<size_t>(k)].role;
    if (const Operand* o = WithRole(before, role)) {
      operands.push_back(*o);
    } else if (role == Role::kReturn) {
      fresh = FreshTemp(v.shader, inserted);
      operands.push_back(Dst(*fresh, 0));
    } else {
      return std::nullopt;
    }
  }
  Instruction& i = v.shader.instructions[at + inserted];
  i.op = op;
  i.operands = std::move(operands);
  return v;
}

std::optional<isa::Case> WithDstComponentInPlace(const isa::Case& c, size_t at,
                                                 int component) {
  if (at >= c.shader.instructions.size() || component < 0 || component > 3)
    return std::nullopt;
  const Operand* ret = WithRole(c.shader.instructions[at], Role::kReturn);
  if (ret == nullptr || ret->file != RegFile::kTemp || ret->relative ||
      ret->selection != Selection::kMask || std::popcount(ret->mask) != 1) {
    return std::nullopt;
  }
  isa::Case v = Stripped(c);
  size_t inserted = 0;
  const uint32_t t = FreshTemp(v.shader, inserted);
  const size_t now = at + inserted;
  const Operand original = *WithRole(v.shader.instructions[now], Role::kReturn);
  const int named = std::countr_zero(original.mask);
  Operand moved = original;
  moved.mask = static_cast<uint8_t>(1u << component);
  Operand moved_src = isa::Temp(original.index, Selection::kSelect1,
                                static_cast<uint8_t>(component));
  Instruction& atomic = v.shader.instructions[now];
  atomic.operands[static_cast<size_t>(
      atomic.info().operand_with_role(Role::kReturn))] = moved;
  std::vector<Instruction> after = {
      Make(Op::kMov, {original, moved_src}),
      Make(Op::kMov, {moved, Src(t, 0)}),
  };
  if (component == named) after.pop_back();
  v.shader.instructions.insert(
      v.shader.instructions.begin() + static_cast<std::ptrdiff_t>(now + 1),
      after.begin(), after.end());
  if (component != named) {
    v.shader.instructions.insert(
        v.shader.instructions.begin() + static_cast<std::ptrdiff_t>(now),
        Make(Op::kMov, {Dst(t, 0), moved_src}));
  }
  return v;
}

namespace {

std::optional<isa::Case> WithOperand(const isa::Case& c, size_t at, Role role,
                                     uint32_t value) {
  if (at >= c.shader.instructions.size()) return std::nullopt;
  const int k = c.shader.instructions[at].info().operand_with_role(role);
  if (k < 0) return std::nullopt;
  isa::Case v = Stripped(c);
  v.shader.instructions[at].operands[static_cast<size_t>(k)] = isa::Imm(value);
  return v;
}

}  // namespace

std::optional<isa::Case> WithValue(const isa::Case& c, size_t at,
                                   uint32_t value) {
  return WithOperand(c, at, Role::kValue, value);
}

std::optional<isa::Case> WithComparand(const isa::Case& c, size_t at,
                                       uint32_t comparand) {
  return WithOperand(c, at, Role::kComparand, comparand);
}

std::optional<isa::Case> WithFirstAddress(const isa::Case& c, size_t at) {
  if (at >= c.shader.instructions.size()) return std::nullopt;
  isa::Case v = Stripped(c);
  Instruction& i = v.shader.instructions[at];
  bool any = false;
  for (Role r : {Role::kAddress, Role::kStructIndex, Role::kByteOffset}) {
    const int k = i.info().operand_with_role(r);
    if (k < 0) continue;
    i.operands[static_cast<size_t>(k)] =
        r == Role::kAddress ? isa::Imm4(0, 0, 0, 0) : isa::Imm(0);
    any = true;
  }
  if (!any) return std::nullopt;
  return v;
}

bool ConstantlyOutOfBounds(const isa::Case& c, size_t at) {
  if (at >= c.shader.instructions.size()) return false;
  const Instruction& i = c.shader.instructions[at];
  const Operand* target = WithRole(i, Role::kTarget);
  if (target == nullptr) return false;
  // Component k of an operand of role r, if constant: an immediate, or a
  // register a mov of an immediate set before, with no block in between.
  auto constant = [&](Role r, int k, uint64_t& v) {
    const Operand* o = WithRole(i, r);
    if (o == nullptr) return false;
    if (o->file == RegFile::kImmediate) {
      v = o->values[o->value_count == 1 ? 0 : static_cast<size_t>(k & 3)];
      return true;
    }
    if (o->file != RegFile::kTemp || o->relative) return false;
    const uint8_t component = o->Component(k);
    for (size_t j = at; j-- > 0;) {
      const Instruction& w = c.shader.instructions[j];
      if (w.info().block != isa::BlockShape::kNone ||
          w.info().family == isa::Family::kDecl)
        return false;
      const isa::OperandLayout& layout = isa::Layout(w.op);
      for (size_t d = 0; d < w.operands.size(); ++d) {
        const Operand& dst = w.operands[d];
        if (!((layout.dst_mask >> d) & 1) || dst.file != RegFile::kTemp ||
            dst.index != o->index || !((dst.mask >> component) & 1))
          continue;
        if (w.op != Op::kMov || w.operands.size() < 2 ||
            w.operands[1].file != RegFile::kImmediate)
          return false;
        const Operand& src = w.operands[1];
        v = src.values[src.value_count == 1 ? 0 : component];
        return true;
      }
    }
    return false;
  };
  const bool raw_op = i.op == Op::kLdRaw || i.op == Op::kStoreRaw;
  const bool struct_op =
      i.op == Op::kLdStructured || i.op == Op::kStoreStructured;
  uint64_t a = 0, b = 0;
  if (target->file == RegFile::kTgsm) {
    const Instruction* d = nullptr;
    for (const Instruction& x : c.shader.instructions) {
      const Operand* declared = WithRole(x, Role::kDeclared);
      if (x.info().family == isa::Family::kDecl && declared != nullptr &&
          declared->file == RegFile::kTgsm && declared->index == target->index)
        d = &x;
    }
    if (d == nullptr || d->operands.size() < 2) return false;
    if (raw_op && d->op == Op::kDclTgsmRaw)
      return constant(Role::kByteOffset, 0, a) && a + 4 > d->operands[1].index;
    if (struct_op && d->op == Op::kDclTgsmStructured && d->operands.size() > 2)
      return constant(Role::kStructIndex, 0, a) &&
             constant(Role::kByteOffset, 0, b) &&
             (a >= d->operands[2].index || b + 4 > d->operands[1].index);
    return false;
  }
  const isa::Resource* r = c.FindResource(target->index);
  if (r == nullptr) return false;
  switch (r->kind) {
    case isa::ResourceKind::kRaw:
      return raw_op && constant(Role::kByteOffset, 0, a) &&
             a + 4 > uint64_t{r->words} * 4;
    case isa::ResourceKind::kStructured:
      return struct_op && constant(Role::kStructIndex, 0, a) &&
             constant(Role::kByteOffset, 0, b) &&
             (a >= r->elements || b + 4 > r->stride);
    case isa::ResourceKind::kTyped:
      for (int k = 0; k < isa::TypedAddressWidth(r->dim); ++k) {
        if (!constant(Role::kAddress, k, a)) return false;
        if (a >= r->size[static_cast<size_t>(k)]) return true;
      }
      return false;
  }
  return false;
}

std::vector<size_t> PlainAccesses(const isa::Program& p) {
  std::vector<size_t> out;
  for (size_t i = 0; i < p.instructions.size(); ++i) {
    const isa::Family f = p.instructions[i].info().family;
    if (f == isa::Family::kLoad || f == isa::Family::kStore) out.push_back(i);
  }
  return out;
}

std::optional<isa::Case> WithFolded(const isa::Case& c, size_t at) {
  if (at >= c.shader.instructions.size()) return std::nullopt;
  const Instruction& i = c.shader.instructions[at];
  const isa::OperandLayout& layout = isa::Layout(i.op);
  if (i.info().family != isa::Family::kAlu || layout.destinations() != 1)
    return std::nullopt;
  const Operand* dst = nullptr;
  for (size_t k = 0; k < i.operands.size(); ++k) {
    const Operand& o = i.operands[k];
    if ((layout.dst_mask >> k) & 1) {
      dst = &o;
    } else if (((layout.src_mask >> k) & 1) && o.file != RegFile::kImmediate) {
      return std::nullopt;  // a register: its value is the case's
    }
  }
  if (dst == nullptr || dst->file != RegFile::kTemp || dst->relative ||
      dst->selection != Selection::kMask || dst->mask == 0) {
    return std::nullopt;
  }
  // The spec's values: the instruction alone in one thread, its result
  // stored to a fresh u#, run on the oracle.
  isa::Case probe = Stripped(c);
  uint32_t slot = 0;
  for (const isa::Resource& r : probe.resources)
    slot = std::max(slot, r.slot + 1);
  if (slot > isa::kMaxUavSlot) return std::nullopt;
  std::vector<Instruction> code;
  for (const Instruction& d : probe.shader.instructions) {
    if (d.info().family == isa::Family::kDecl && d.op != Op::kDclThreadGroup)
      code.push_back(d);
  }
  Instruction dcl = Make(Op::kDclUavRaw, {isa::Uav(slot)});
  code.push_back(dcl);
  code.push_back(Make(Op::kDclThreadGroup,
                      {isa::Number(1), isa::Number(1), isa::Number(1)}));
  code.push_back(i);
  Operand all = *dst;
  all.selection = Selection::kSwizzle;
  all.swizzle = {0, 1, 2, 3};
  Operand out = isa::Uav(slot);
  out.selection = Selection::kMask;
  out.mask = 0xf;
  code.push_back(Make(Op::kStoreRaw, {out, isa::Imm(0), all}));
  code.push_back(Make(Op::kRet, {}));
  probe.shader.instructions = std::move(code);
  probe.groups = {1, 1, 1};
  isa::Resource r;
  r.slot = slot;
  r.kind = isa::ResourceKind::kRaw;
  r.words = 4;
  r.init.assign(4, 0);
  probe.resources.push_back(r);
  if (!isa::Validate(probe).ok()) return std::nullopt;
  RunOptions spec;
  spec.target = "oracle";
  absl::StatusOr<isa::Outcome> o = RunCase(probe, spec);
  if (!o.ok() || o->status != isa::RunStatus::kOk) return std::nullopt;
  const isa::UavState* u = nullptr;
  for (const isa::UavState& s : o->uavs)
    if (s.slot == slot) u = &s;
  if (u == nullptr || u->words.size() < 4) return std::nullopt;
  std::array<uint32_t, 4> values{};
  for (size_t k = 0; k < 4; ++k) {
    if (((dst->mask >> k) & 1) && !u->defined[k]) return std::nullopt;
    values[k] = u->words[k];
  }
  isa::Case v = Stripped(c);
  v.shader.instructions[at] = Make(
      Op::kMov, {*dst, isa::Imm4(values[0], values[1], values[2], values[3])});
  return v;
}

std::optional<isa::Case> WithDstComponent(const isa::Case& c, size_t at,
                                          int component, uint32_t fill,
                                          size_t* moved_to) {
  if (at >= c.shader.instructions.size() || component < 0 || component > 3)
    return std::nullopt;
  const Operand* ret = WithRole(c.shader.instructions[at], Role::kReturn);
  if (ret == nullptr || ret->file != RegFile::kTemp ||
      ret->selection != Selection::kMask || std::popcount(ret->mask) != 1) {
    return std::nullopt;
  }
  const int named = std::countr_zero(ret->mask);
  isa::Case v = Stripped(c);
  size_t inserted = 0;
  const uint32_t t = FreshTemp(v.shader, inserted);
  const size_t begin = CodeBegin(v.shader);
  Operand all = isa::Temp(t, Selection::kMask, 0xf);
  v.shader.instructions.insert(
      v.shader.instructions.begin() + static_cast<std::ptrdiff_t>(begin),
      Make(Op::kMov, {all, isa::Imm4(fill, fill, fill, fill)}));
  ++inserted;
  const size_t now = at + inserted;
  if (moved_to != nullptr) *moved_to = now;
  Instruction& atomic = v.shader.instructions[now];
  const int r = atomic.info().operand_with_role(Role::kReturn);
  const Operand original = atomic.operands[static_cast<size_t>(r)];
  atomic.operands[static_cast<size_t>(r)] = Dst(t, component);
  Operand back = original;
  back.mask = static_cast<uint8_t>(1u << named);
  v.shader.instructions.insert(
      v.shader.instructions.begin() + static_cast<std::ptrdiff_t>(now + 1),
      Make(Op::kMov, {back, Src(t, component)}));
  return v;
}

std::optional<isa::Case> WithOneGroup(const isa::Case& c) {
  if (c.groups[0] * c.groups[1] * c.groups[2] == 1) return std::nullopt;
  isa::Case v = Stripped(c);
  v.groups = {1, 1, 1};
  return v;
}

bool HasBarrier(const isa::Program& p) {
  return std::any_of(p.instructions.begin(), p.instructions.end(),
                     [](const Instruction& i) { return i.op == Op::kSync; });
}

std::optional<isa::Case> WithoutBarriers(const isa::Case& c) {
  if (!HasBarrier(c.shader)) return std::nullopt;
  isa::Case v = Stripped(c);
  std::erase_if(v.shader.instructions,
                [](const Instruction& i) { return i.op == Op::kSync; });
  return v;
}

std::optional<isa::Case> WithOnlyThread(const isa::Case& c, uint64_t index) {
  if (HasBarrier(c.shader) || index >= isa::ThreadCount(c)) return std::nullopt;
  std::array<uint32_t, 3> size = {1, 1, 1};
  for (const Instruction& d : c.shader.instructions) {
    if (d.op == Op::kDclThreadGroup && d.operands.size() == 3)
      for (size_t k = 0; k < 3; ++k) size[k] = d.operands[k].index;
  }
  // vThreadID of the thread: group-major over the dispatch, x fastest.
  const uint64_t per_group = uint64_t{size[0]} * size[1] * size[2];
  uint64_t group = index / per_group, local = index % per_group;
  std::array<uint32_t, 3> id;
  for (size_t k = 0; k < 3; ++k) {
    id[k] = static_cast<uint32_t>((group % c.groups[k]) * size[k] +
                                  local % size[k]);
    group /= c.groups[k];
    local /= size[k];
  }
  isa::Case v = Stripped(c);
  size_t inserted = 0;
  const uint32_t t = FreshTemp(v.shader, inserted);
  edit::DeclareInput(v.shader, RegFile::kThreadID);
  auto thread_id = [](int k) { return InputComponent(RegFile::kThreadID, k); };
  std::vector<Instruction> guard;
  for (int k = 0; k < 3; ++k) {
    guard.push_back(Make(Op::kINe, {Dst(t, k), thread_id(k),
                                    isa::Imm(id[static_cast<size_t>(k)])}));
  }
  guard.push_back(Make(Op::kOr, {Dst(t, 0), Src(t, 0), Src(t, 1)}));
  guard.push_back(Make(Op::kOr, {Dst(t, 0), Src(t, 0), Src(t, 2)}));
  guard.push_back(Make(Op::kRetcNz, {Src(t, 0)}));
  const size_t begin = CodeBegin(v.shader);
  v.shader.instructions.insert(
      v.shader.instructions.begin() + static_cast<std::ptrdiff_t>(begin),
      guard.begin(), guard.end());
  return v;
}

}  // namespace atomfuzz::fuzz
