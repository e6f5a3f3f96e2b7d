#include "fuzz/triage/memory_conversion.h"

#include <algorithm>
#include <bit>
#include <optional>
#include <utility>

#include "fuzz/triage/edit_helpers.h"
#include "isa/coverage.h"

namespace atomfuzz::fuzz {
namespace {

using edit::ComponentOf;
using edit::DeclOf;
using edit::Dst;
using edit::kRawOutOfBounds;
using edit::Make;
using edit::Names;
using edit::Src;
using edit::WithRole;
using isa::Instruction;
using isa::Op;
using isa::Operand;
using isa::RegFile;
using isa::Role;
using isa::Selection;

// One access of a memory, its address as one-component parts: raw (byte
// address), structured (index, byte offset), typed (coordinates).
struct Access {
  bool atomic = false, load = false, store = false;
  std::vector<Operand> parts;
  int words = 1;  // consecutive words it reads or writes
};

std::optional<Access> AccessOf(const Instruction& i, isa::ResourceKind kind,
                               int typed_width) {
  const isa::Family f = i.info().family;
  Access a;
  a.atomic = f == isa::Family::kAtomic || f == isa::Family::kImmAtomic;
  a.load = f == isa::Family::kLoad;
  a.store = f == isa::Family::kStore;
  if (!a.atomic && !a.load && !a.store) return std::nullopt;  // a counter
  if (a.atomic || kind == isa::ResourceKind::kTyped) {
    const Operand* address = WithRole(i, Role::kAddress);
    if (address == nullptr) return std::nullopt;
    const int n = kind == isa::ResourceKind::kRaw          ? 1
                  : kind == isa::ResourceKind::kStructured ? 2
                                                           : typed_width;
    for (int k = 0; k < n; ++k) a.parts.push_back(ComponentOf(*address, k));
  } else {
    if (kind == isa::ResourceKind::kStructured) {
      const Operand* index = WithRole(i, Role::kStructIndex);
      if (index == nullptr) return std::nullopt;
      a.parts.push_back(ComponentOf(*index, 0));
    }
    const Operand* offset = WithRole(i, Role::kByteOffset);
    if (offset == nullptr) return std::nullopt;
    a.parts.push_back(ComponentOf(*offset, 0));
  }
  const Operand* target = WithRole(i, Role::kTarget);
  if (a.store && kind != isa::ResourceKind::kTyped) {
    a.words = std::popcount(target->mask);
  } else if (a.load && kind != isa::ResourceKind::kTyped) {
    const Operand* dst = WithRole(i, Role::kDest);
    if (dst == nullptr) return std::nullopt;
    a.words = 0;
    for (int k = 0; k < 4; ++k) {
      if ((dst->mask >> k) & 1)
        a.words = std::max(a.words, target->Component(k) + 1);
    }
  }
  return a;
}

// Code computing a new address for one access into temp `t`.
struct AddressCode {
  std::vector<Instruction> code;
  std::vector<Operand> parts;  // the new address, as the new kind takes it
};

// A poison flag into t.z for a structure of `stride` bytes accessed
// `words` at a time from offset t.y: misaligned, or running past it.
void OffsetPoison(std::vector<Instruction>& code, uint32_t t, uint32_t stride,
                  int words) {
  code.push_back(Make(Op::kAnd, {Dst(t, 2), Src(t, 1), isa::Imm(3)}));
  const uint32_t span = 4u * static_cast<uint32_t>(words);
  if (span > stride) {
    code.push_back(Make(Op::kMov, {Dst(t, 2), isa::Imm(1)}));
    return;
  }
  code.push_back(
      Make(Op::kULt, {Dst(t, 3), isa::Imm(stride - span), Src(t, 1)}));
  code.push_back(Make(Op::kOr, {Dst(t, 2), Src(t, 2), Src(t, 3)}));
}

// Structured (index, offset) -> a raw byte address of the same class:
// a bad offset poisons (misaligned 1); index * stride + offset otherwise,
// past the end exactly when the index is (an executor that wraps an
// out-of-bounds address wraps both alike), or past any view where that
// would not fit in 32 bits.
AddressCode StructuredToRaw(const Access& a, uint32_t t,
                            const isa::Resource& r) {
  AddressCode out;
  out.code = {Make(Op::kMov, {Dst(t, 0), a.parts[0]}),
              Make(Op::kMov, {Dst(t, 1), a.parts[1]})};
  OffsetPoison(out.code, t, r.stride, a.words);
  const uint32_t fits = (0xffffffffu - r.stride) / r.stride;
  out.code.push_back(Make(Op::kULt, {Dst(t, 3), isa::Imm(fits), Src(t, 0)}));
  out.code.push_back(
      Make(Op::kIMad, {Dst(t, 0), Src(t, 0), isa::Imm(r.stride), Src(t, 1)}));
  out.code.push_back(Make(
      Op::kMovc, {Dst(t, 0), Src(t, 3), isa::Imm(kRawOutOfBounds), Src(t, 0)}));
  out.code.push_back(
      Make(Op::kMovc, {Dst(t, 0), Src(t, 2), isa::Imm(1), Src(t, 0)}));
  out.parts = {Src(t, 0)};
  return out;
}

// Typed coordinates -> the raw byte address of the same word (x-major, as
// the view's contents are laid out), or past the end where any coordinate
// is (both skip: spec 1.3, E-18).
AddressCode TypedToRaw(const Access& a, uint32_t t, const isa::Resource& r) {
  const int n = static_cast<int>(a.parts.size());
  AddressCode out;
  if (n == 1) {
    // One coordinate: 4x is in bounds exactly when x is, and an executor
    // that wraps out-of-bounds addresses wraps both alike (x below 2^30,
    // where 4x does not overflow).
    out.code = {
        Make(Op::kULt, {Dst(t, 2), a.parts[0], isa::Imm(0x40000000)}),
        Make(Op::kIShl, {Dst(t, 1), a.parts[0], isa::Imm(2)}),
        Make(Op::kMovc,
             {Dst(t, 0), Src(t, 2), Src(t, 1), isa::Imm(kRawOutOfBounds)}),
    };
    out.parts = {Src(t, 0)};
    return out;
  }
  out.code.push_back(Make(Op::kMov, {Dst(t, 1), a.parts.back()}));
  for (int k = n - 2; k >= 0; --k) {
    out.code.push_back(
        Make(Op::kIMad,
             {Dst(t, 1), Src(t, 1), isa::Imm(r.size[static_cast<size_t>(k)]),
              a.parts[static_cast<size_t>(k)]}));
  }
  out.code.push_back(
      Make(Op::kUGe, {Dst(t, 2), a.parts[0], isa::Imm(r.size[0])}));
  for (int k = 1; k < n; ++k) {
    out.code.push_back(
        Make(Op::kUGe, {Dst(t, 3), a.parts[static_cast<size_t>(k)],
                        isa::Imm(r.size[static_cast<size_t>(k)])}));
    out.code.push_back(Make(Op::kOr, {Dst(t, 2), Src(t, 2), Src(t, 3)}));
  }
  out.code.push_back(Make(Op::kIShl, {Dst(t, 1), Src(t, 1), isa::Imm(2)}));
  out.code.push_back(Make(
      Op::kMovc, {Dst(t, 0), Src(t, 2), isa::Imm(kRawOutOfBounds), Src(t, 1)}));
  out.parts = {Src(t, 0)};
  return out;
}

// A raw byte address -> (address / 4, address % 4) in a 4-byte stride:
// misaligned still poisons (offset), past the end still skips (index).
// Only for one-word accesses (more would run past the 4-byte structure).
AddressCode RawToStructured(const Access& a, uint32_t t, const isa::Resource&) {
  AddressCode out;
  out.code = {
      Make(Op::kUShr, {Dst(t, 0), a.parts[0], isa::Imm(2)}),
      Make(Op::kAnd, {Dst(t, 1), a.parts[0], isa::Imm(3)}),
  };
  out.parts = {Src(t, 0), Src(t, 1)};
  return out;
}

// Rewrites every access of u/g`slot` (whose kind is `from`) into an access
// of u`to_slot` of kind `to`, addressed by what `rewrite` computes in temp
// `t`. Atomics keep their opcode; loads and stores become the raw or
// structured ones.
template <typename Rewrite>
bool RewriteAccesses(isa::Program& p, RegFile file, uint32_t slot,
                     isa::ResourceKind from, int typed_width,
                     isa::ResourceKind to, uint32_t to_slot, uint32_t t,
                     Rewrite rewrite) {
  std::vector<Instruction> code;
  code.reserve(p.instructions.size() * 4);
  for (Instruction& i : p.instructions) {
    const Operand* target = WithRole(i, Role::kTarget);
    if (i.info().family == isa::Family::kDecl || target == nullptr ||
        !Names(*target, file, slot)) {
      code.push_back(std::move(i));
      continue;
    }
    std::optional<Access> a = AccessOf(i, from, typed_width);
    if (!a) return false;
    AddressCode ac = rewrite(*a);
    for (Instruction& x : ac.code) code.push_back(std::move(x));
    Operand mem = *target;
    mem.file = RegFile::kUav;
    mem.index = to_slot;
    const bool raw = to == isa::ResourceKind::kRaw;
    if (a->atomic) {
      // One address operand: the raw address, or (index, offset).
      Operand address = ac.parts[0];
      if (!raw) {
        address.selection = Selection::kSwizzle;
        address.swizzle = {ac.parts[0].swizzle[0], ac.parts[1].swizzle[0],
                           ac.parts[0].swizzle[0], ac.parts[0].swizzle[0]};
      }
      const int k = i.info().operand_with_role(Role::kAddress);
      i.operands[static_cast<size_t>(k)] = address;
      const int m = i.info().operand_with_role(Role::kTarget);
      i.operands[static_cast<size_t>(m)] = mem;
      code.push_back(std::move(i));
      continue;
    }
    Instruction n;
    if (a->load && from == isa::ResourceKind::kTyped) {
      // The word into t.y, the format's defaults (0, 0, 1) beside it, then
      // the load's swizzle over that window (spec 1.7).
      code.push_back(
          Make(Op::kLdRaw, {Dst(t, 1), ac.parts[0], isa::Uav(to_slot)}));
      code.back().operands[2].selection = Selection::kSwizzle;
      code.back().operands[2].swizzle = {0, 0, 0, 0};
      code.push_back(Make(Op::kMov, {Dst(t, 2), isa::Imm(0)}));
      code.push_back(Make(Op::kMov, {Dst(t, 3), isa::Imm(1)}));
      static constexpr uint8_t kWindow[4] = {1, 2, 2, 3};
      Operand window = isa::TempSwizzle(t, {0, 0, 0, 0});
      for (int k = 0; k < 4; ++k)
        window.swizzle[static_cast<size_t>(k)] = kWindow[target->Component(k)];
      code.push_back(Make(Op::kMov, {*WithRole(i, Role::kDest), window}));
      continue;
    }
    if (a->load) {
      n.op = raw ? Op::kLdRaw : Op::kLdStructured;
      n.operands = {*WithRole(i, Role::kDest)};
    } else {
      n.op = raw ? Op::kStoreRaw : Op::kStoreStructured;
      // A typed store writes one element: its value's x.
      if (from == isa::ResourceKind::kTyped) mem.mask = 0x1;
      n.operands = {mem};
    }
    for (const Operand& part : ac.parts) n.operands.push_back(part);
    n.operands.push_back(a->load ? mem : *WithRole(i, Role::kValue));
    code.push_back(std::move(n));
  }
  p.instructions = std::move(code);
  return true;
}

using Rewrite = AddressCode (*)(const Access&, uint32_t, const isa::Resource&);

// The u# view `slot` re-declared as `to`, every access of it addressed
// through `rewrite`.
std::optional<isa::Case> ReshapedUav(const isa::Case& c, uint32_t slot,
                                     isa::ResourceKind to, Rewrite rewrite) {
  isa::Case v = edit::Stripped(c);
  const isa::Resource* found = v.FindResource(slot);
  if (found == nullptr) return std::nullopt;
  const isa::Resource old = *found;
  size_t inserted = 0;
  const uint32_t t = edit::FreshTemp(v.shader, inserted);
  const int width = old.kind == isa::ResourceKind::kTyped
                        ? isa::TypedAddressWidth(old.dim)
                        : 0;
  if (!RewriteAccesses(v.shader, RegFile::kUav, slot, old.kind, width, to, slot,
                       t,
                       [&](const Access& a) { return rewrite(a, t, old); })) {
    return std::nullopt;
  }
  Instruction* d = DeclOf(v.shader, RegFile::kUav, slot);
  if (d == nullptr) return std::nullopt;
  isa::Resource fresh;
  fresh.slot = slot;
  fresh.kind = to;
  fresh.init = old.init;
  Instruction dcl;
  dcl.glc = d->glc;
  dcl.operands = {isa::Uav(slot)};
  if (to == isa::ResourceKind::kRaw) {
    fresh.words = static_cast<uint32_t>(old.WordCount());
    dcl.op = Op::kDclUavRaw;
  } else {
    fresh.stride = 4;
    fresh.elements = static_cast<uint32_t>(old.WordCount());
    dcl.op = Op::kDclUavStructured;
    dcl.operands.push_back(isa::Number(4));
  }
  *d = dcl;
  for (isa::Resource& r : v.resources) {
    if (r.slot == slot) r = fresh;
  }
  return v;
}

// Whether every access of u`slot` suits a conversion: no counter, and one
// word at a time where `one_word`.
bool Convertible(const isa::Program& p, uint32_t slot, isa::ResourceKind kind,
                 int width, bool one_word) {
  for (const Instruction& i : p.instructions) {
    const Operand* t = WithRole(i, Role::kTarget);
    if (i.info().family == isa::Family::kDecl || t == nullptr ||
        !Names(*t, RegFile::kUav, slot))
      continue;
    std::optional<Access> a = AccessOf(i, kind, width);
    if (!a || (one_word && a->words != 1)) return false;
  }
  return true;
}

// g`slot` as a u# of the same layout holding every group's g# one after
// the other (zeros where g# starts undefined): each group addresses its own
// part, and an address past its g# goes past the u# (a skip where g# would
// poison: the case stays as defined, or more).
std::optional<isa::Case> TgsmAsUav(const isa::Case& c, uint32_t slot) {
  isa::Case v = edit::Stripped(c);
  Instruction* d = DeclOf(v.shader, RegFile::kTgsm, slot);
  if (d == nullptr || d->operands.size() < 2) return std::nullopt;
  const uint64_t groups = uint64_t{c.groups[0]} * c.groups[1] * c.groups[2];
  uint32_t uav = 0;
  for (const isa::Resource& r : v.resources) uav = std::max(uav, r.slot + 1);
  if (uav > isa::kMaxUavSlot) return std::nullopt;
  const bool raw = d->op == Op::kDclTgsmRaw;
  if (!raw && d->operands.size() < 3) return std::nullopt;
  const uint32_t bytes = raw ? d->operands[1].index : 0;
  const uint32_t stride = raw ? 0 : d->operands[1].index;
  const uint32_t count = raw ? 0 : d->operands[2].index;
  isa::Resource r;
  r.slot = uav;
  Instruction dcl;
  dcl.operands = {isa::Uav(uav)};
  if (raw) {
    r.kind = isa::ResourceKind::kRaw;
    r.words = static_cast<uint32_t>(std::min<uint64_t>(
        uint64_t{bytes / 4} * groups, isa::kMaxResourceWords + 1));
    dcl.op = Op::kDclUavRaw;
  } else {
    r.kind = isa::ResourceKind::kStructured;
    r.stride = stride;
    r.elements = static_cast<uint32_t>(std::min<uint64_t>(
        uint64_t{count} * groups, isa::kMaxResourceWords + 1));
    dcl.op = Op::kDclUavStructured;
    dcl.operands.push_back(isa::Number(stride));
  }
  const uint64_t words = r.WordCount();
  if (words == 0 || words > isa::kMaxResourceWords) return std::nullopt;
  r.init.assign(words, 0);
  *d = dcl;
  size_t inserted = 0;
  const uint32_t t = edit::FreshTemp(v.shader, inserted);
  // The group's flat index into t.w, once, at the start.
  std::vector<Instruction> start;
  if (groups > 1) {
    edit::DeclareInput(v.shader, RegFile::kThreadGroupID);
    start = {
        Make(Op::kIMad,
             {Dst(t, 3), edit::InputComponent(RegFile::kThreadGroupID, 2),
              isa::Imm(c.groups[1]),
              edit::InputComponent(RegFile::kThreadGroupID, 1)}),
        Make(Op::kIMad, {Dst(t, 3), Src(t, 3), isa::Imm(c.groups[0]),
                         edit::InputComponent(RegFile::kThreadGroupID, 0)}),
    };
  } else {
    start = {Make(Op::kMov, {Dst(t, 3), isa::Imm(0)})};
  }
  const uint32_t part = raw ? bytes : count;  // one group's share
  const bool ok = RewriteAccesses(
      v.shader, RegFile::kTgsm, slot,
      raw ? isa::ResourceKind::kRaw : isa::ResourceKind::kStructured, 0, r.kind,
      uav, t, [&](const Access& a) {
        AddressCode out;
        const Operand& x = a.parts[0];  // the raw address or the index
        const uint32_t span = raw ? 4u * static_cast<uint32_t>(a.words) : 1;
        // Past the group's share: t.z; inside: x + group * share.
        if (span > part) {
          out.code.push_back(Make(Op::kMov, {Dst(t, 2), isa::Imm(1)}));
        } else {
          out.code.push_back(
              Make(Op::kULt, {Dst(t, 2), isa::Imm(part - span), x}));
        }
        out.code.push_back(
            Make(Op::kIMad, {Dst(t, 0), Src(t, 3), isa::Imm(part), x}));
        out.code.push_back(
            Make(Op::kMovc,
                 {Dst(t, 0), Src(t, 2),
                  isa::Imm(raw ? kRawOutOfBounds : 0xffffffffu), Src(t, 0)}));
        out.parts = {Src(t, 0)};
        if (!raw) {
          out.code.push_back(Make(Op::kMov, {Dst(t, 1), a.parts[1]}));
          out.parts.push_back(Src(t, 1));
        }
        return out;
      });
  if (!ok) return std::nullopt;
  const size_t begin = edit::CodeBegin(v.shader);
  v.shader.instructions.insert(
      v.shader.instructions.begin() + static_cast<std::ptrdiff_t>(begin),
      start.begin(), start.end());
  for (Instruction& i : v.shader.instructions) {
    // A barrier that orders g# for the group orders the u# now.
    if (i.op == Op::kSync && (i.sync_flags & isa::kSyncTgsm) != 0 &&
        (i.sync_flags & isa::kSyncUavGlobal) == 0)
      i.sync_flags |= isa::kSyncUavGroup;
  }
  v.resources.push_back(std::move(r));
  std::sort(v.resources.begin(), v.resources.end(),
            [](const isa::Resource& a, const isa::Resource& b) {
              return a.slot < b.slot;
            });
  return v;
}

}  // namespace

std::vector<MemoryVariant> WithOtherMemory(const isa::Case& c, size_t at) {
  std::vector<MemoryVariant> out;
  if (at >= c.shader.instructions.size()) return out;
  const Operand* target = WithRole(c.shader.instructions[at], Role::kTarget);
  if (target == nullptr) return out;
  const uint32_t slot = target->index;
  auto add = [&](std::optional<isa::Case> v, isa::TargetKind kind) {
    if (v)
      out.push_back({*std::move(v), std::string(isa::TargetKindName(kind))});
  };
  if (target->file == RegFile::kTgsm) {
    const auto kinds = isa::DeclaredKinds(c.shader);
    auto it = kinds.find({RegFile::kTgsm, slot});
    if (it == kinds.end()) return out;
    add(TgsmAsUav(c, slot), it->second == isa::TargetKind::kTgsmRaw
                                ? isa::TargetKind::kUavRaw
                                : isa::TargetKind::kUavStructured);
    return out;
  }
  const isa::Resource* r = c.FindResource(slot);
  // A hidden counter that alloc and consume use keeps the view structured;
  // one nothing uses goes with the conversion.
  const bool counted =
      std::any_of(c.shader.instructions.begin(), c.shader.instructions.end(),
                  [&](const Instruction& i) {
                    const Operand* t = WithRole(i, Role::kTarget);
                    return i.info().family == isa::Family::kCounter &&
                           t != nullptr && Names(*t, RegFile::kUav, slot);
                  });
  if (r == nullptr || counted) return out;
  switch (r->kind) {
    case isa::ResourceKind::kStructured:
      if (r->stride < 4 ||
          !Convertible(c.shader, slot, r->kind, 0, /*one_word=*/false))
        return out;
      add(ReshapedUav(c, slot, isa::ResourceKind::kRaw, StructuredToRaw),
          isa::TargetKind::kUavRaw);
      break;
    case isa::ResourceKind::kTyped:
      if ((r->format != isa::Format::kR32Uint &&
           r->format != isa::Format::kR32Sint) ||
          !Convertible(c.shader, slot, r->kind, isa::TypedAddressWidth(r->dim),
                       /*one_word=*/false))
        return out;
      add(ReshapedUav(c, slot, isa::ResourceKind::kRaw, TypedToRaw),
          isa::TargetKind::kUavRaw);
      break;
    case isa::ResourceKind::kRaw:
      if (!Convertible(c.shader, slot, r->kind, 0, /*one_word=*/true))
        return out;
      add(ReshapedUav(c, slot, isa::ResourceKind::kStructured, RawToStructured),
          isa::TargetKind::kUavStructured);
      break;
  }
  return out;
}

}  // namespace atomfuzz::fuzz
