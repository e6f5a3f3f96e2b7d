#include "fuzz/triage/generalise_edits.h"

#include <algorithm>
#include <bit>
#include <utility>

#include "fuzz/triage/edit_helpers.h"

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

std::optional<isa::Case> WithValue(const isa::Case& c, size_t at,
                                   uint32_t value) {
  if (at >= c.shader.instructions.size()) return std::nullopt;
  const int k =
      c.shader.instructions[at].info().operand_with_role(Role::kValue);
  if (k < 0) return std::nullopt;
  isa::Case v = Stripped(c);
  v.shader.instructions[at].operands[static_cast<size_t>(k)] = isa::Imm(value);
  return v;
}

std::optional<isa::Case> WithFirstAddress(const isa::Case& c, size_t at) {
  if (at >= c.shader.instructions.size()) return std::nullopt;
  const int k =
      c.shader.instructions[at].info().operand_with_role(Role::kAddress);
  if (k < 0) return std::nullopt;
  isa::Case v = Stripped(c);
  v.shader.instructions[at].operands[static_cast<size_t>(k)] =
      isa::Imm4(0, 0, 0, 0);
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
