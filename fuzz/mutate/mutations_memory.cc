// Mutations of memory: UAV views (size, stride, kind, counter, contents) and
// g# declarations. Declarations and views change together, so the case keeps
// matching its bindings (validator rule resource-binding).
#include <algorithm>

#include "fuzz/generate/case_facts.h"
#include "fuzz/generate/operand_builder.h"
#include "fuzz/mutate/mutations.h"

namespace atomfuzz::fuzz {
namespace {

using isa::Instruction;
using isa::Op;
using isa::Resource;
using isa::ResourceKind;

// A new count near `n` or at a small edge; never 0.
uint32_t NewSize(Choices& choices, uint32_t n) {
  switch (choices.Below(8)) {
    case 0: return 1;
    case 1: return n + 1;
    case 2: return n > 1 ? n - 1 : 2;
    case 3: return n <= UINT32_MAX / 2 ? 2 * n : n;
    case 4: return std::max(1u, n / 2);
    case 5: return 4;
    case 6: return 16;
    default: return 1 + static_cast<uint32_t>(choices.Below(64));
  }
}

// Resizes the contents to the view's shape; false when it would be too big
// to hold (the dispatcher's limits are far below).
bool FitContents(Resource& r) {
  const uint64_t words = r.WordCount();
  if (words == 0 || words > isa::kMaxResourceWords) return false;
  r.init.resize(words, 0);
  return true;
}

Resource* PickResource(isa::Case& c, Choices& choices,
                       bool (*want)(const Resource&)) {
  std::vector<Resource*> rs;
  for (Resource& r : c.resources) {
    if (want(r)) rs.push_back(&r);
  }
  return rs.empty() ? nullptr : rs[choices.Below(rs.size())];
}

bool AnyResource(const Resource&) { return true; }
bool IsStructured(const Resource& r) {
  return r.kind == ResourceKind::kStructured;
}

// Whether only atomics other than counters use u`slot` (loads, stores and
// counters would need another opcode or a counter after a kind change).
bool OnlyPlainAtomicsUse(const isa::Case& c, uint32_t slot) {
  for (const Instruction& i : c.shader.instructions) {
    const isa::OpcodeInfo& row = i.info();
    const int t = row.operand_with_role(isa::Role::kTarget);
    if (t < 0 || row.family == isa::Family::kDecl) continue;
    const isa::Operand& o = i.operands[static_cast<size_t>(t)];
    if (o.file != isa::RegFile::kUav || o.index != slot) continue;
    if (row.family != isa::Family::kAtomic &&
        row.family != isa::Family::kImmAtomic) {
      return false;
    }
  }
  return true;
}

constexpr isa::Dim kTypedDims[] = {
    isa::Dim::kBuffer,    isa::Dim::kTexture1D,      isa::Dim::kTexture1DArray,
    isa::Dim::kTexture2D, isa::Dim::kTexture2DArray, isa::Dim::kTexture3D,
};

// A fresh view of `kind` holding about `words` words, and its declaration.
void Reshape(Choices& choices, ResourceKind kind, uint32_t words, Resource& r,
             Instruction& dcl) {
  Resource fresh;
  fresh.slot = r.slot;
  fresh.kind = kind;
  fresh.init = std::move(r.init);
  Instruction d;
  d.operands = {isa::Uav(r.slot)};
  d.glc = dcl.glc;
  switch (kind) {
    case ResourceKind::kRaw:
      fresh.words = words;
      d.op = Op::kDclUavRaw;
      break;
    case ResourceKind::kStructured:
      fresh.stride = 4 * static_cast<uint32_t>(1 + choices.Below(8));
      fresh.elements = std::max(1u, words * 4 / fresh.stride);
      d.op = Op::kDclUavStructured;
      d.operands.push_back(isa::Number(fresh.stride));
      break;
    case ResourceKind::kTyped: {
      fresh.dim = kTypedDims[choices.Below(std::size(kTypedDims))];
      const bool sint = choices.Below(2) == 1;
      fresh.format = sint ? isa::Format::kR32Sint : isa::Format::kR32Uint;
      const int n = isa::TypedAddressWidth(fresh.dim);
      fresh.size[0] =
          n == 1 ? words : 1 + static_cast<uint32_t>(choices.Below(8));
      if (n >= 2) fresh.size[1] = std::max(1u, words / fresh.size[0]);
      if (n == 3) fresh.size[2] = 1 + static_cast<uint32_t>(choices.Below(2));
      d.op = Op::kDclUavTyped;
      d.dim = fresh.dim;
      d.types.fill(sint ? isa::ReturnType::kSint : isa::ReturnType::kUint);
      break;
    }
  }
  r = std::move(fresh);
  dcl = std::move(d);
}

}  // namespace

bool ResizeUav(isa::Case& c, Choices& choices, const Policy& policy) {
  Resource* r = PickResource(c, choices, AnyResource);
  if (r == nullptr) return false;
  switch (r->kind) {
    case ResourceKind::kRaw: r->words = NewSize(choices, r->words); break;
    case ResourceKind::kStructured:
      r->elements = NewSize(choices, r->elements);
      break;
    case ResourceKind::kTyped: {
      const size_t axis = choices.Below(isa::TypedAddressWidth(r->dim));
      r->size[axis] = NewSize(choices, r->size[axis]);
      break;
    }
  }
  return FitContents(*r);
}

bool ChangeStride(isa::Case& c, Choices& choices, const Policy& policy) {
  Resource* r = PickResource(c, choices, IsStructured);
  if (r == nullptr) return false;
  const CaseFacts f = GatherFacts(c);
  const MemoryFacts* m = f.Find(isa::Uav(r->slot));
  if (m == nullptr) return false;
  static constexpr uint32_t kStrides[] = {4, 8, 12, 16, 20, 64, 2048};
  uint32_t s = r->stride;
  switch (choices.Below(4)) {
    case 0: s = kStrides[choices.Below(std::size(kStrides))]; break;
    case 1: s += 4; break;
    case 2: s = s > 4 ? s - 4 : 8; break;
    default: s = std::min(2048u, 2 * s); break;
  }
  r->stride = s;
  c.shader.instructions[m->decl].operands[1].index = s;
  for (Instruction& i : c.shader.instructions) {  // fxc's ld suffix follows
    const int t = i.info().operand_with_role(isa::Role::kTarget);
    if (i.indexable && t >= 0 &&
        i.operands[static_cast<size_t>(t)].file == isa::RegFile::kUav &&
        i.operands[static_cast<size_t>(t)].index == r->slot &&
        i.indexable->dim == isa::Dim::kStructuredBuffer) {
      i.indexable->stride = s;
    }
  }
  return FitContents(*r);
}

bool ChangeUavKind(isa::Case& c, Choices& choices, const Policy& policy) {
  Resource* r = PickResource(c, choices, AnyResource);
  if (r == nullptr || !OnlyPlainAtomicsUse(c, r->slot)) return false;
  const CaseFacts before = GatherFacts(c);
  const MemoryFacts* m = before.Find(isa::Uav(r->slot));
  if (m == nullptr) return false;
  const uint32_t slot = r->slot;
  const uint64_t words = std::max<uint64_t>(1, r->WordCount());
  const auto kind = static_cast<ResourceKind>(choices.Below(3));
  Reshape(choices, kind,
          static_cast<uint32_t>(std::min<uint64_t>(words, 1u << 20)), *r,
          c.shader.instructions[m->decl]);
  if (!FitContents(*r)) return false;
  // The addresses of its atomics take the new shape (spec 1.2).
  const CaseFacts f = GatherFacts(c);
  const MemoryFacts* now = f.Find(isa::Uav(slot));
  if (now == nullptr) return false;
  for (Instruction& i : c.shader.instructions) {
    const isa::OpcodeInfo& row = i.info();
    const int t = row.operand_with_role(isa::Role::kTarget);
    const int a = row.operand_with_role(isa::Role::kAddress);
    if (!row.is_atomic() || t < 0 || a < 0) continue;
    const isa::Operand& target = i.operands[static_cast<size_t>(t)];
    if (target.file == isa::RegFile::kUav && target.index == slot) {
      i.operands[static_cast<size_t>(a)] = AddressFor(choices, f, *now);
    }
  }
  return true;
}

bool ChangeCounter(isa::Case& c, Choices& choices, const Policy& policy) {
  Resource* r = PickResource(c, choices, IsStructured);
  if (r == nullptr) return false;
  if (r->counter && choices.Below(3) == 0) {
    r->counter.reset();
  } else {
    // spec 6.D: alloc wraps at 0xffffffff, consume at 0 (E-36).
    r->counter = EdgeValue(choices);
  }
  return true;
}

bool ChangeUavData(isa::Case& c, Choices& choices, const Policy& policy) {
  Resource* r = PickResource(c, choices,
                             [](const Resource& x) { return !x.init.empty(); });
  if (r == nullptr) return false;
  std::vector<uint32_t>& w = r->init;
  switch (choices.Below(4)) {
    case 0: w[choices.Below(w.size())] = EdgeValue(choices); break;
    case 1: std::fill(w.begin(), w.end(), EdgeValue(choices)); break;
    case 2: {
      uint32_t v = EdgeValue(choices);
      const uint32_t step = choices.Below(2) == 0 ? 1u : EdgeValue(choices);
      for (uint32_t& x : w) {
        x = v;
        v += step;
      }
      break;
    }
    default: std::fill(w.begin(), w.end(), 0u); break;
  }
  return true;
}

bool ResizeTgsm(isa::Case& c, Choices& choices, const Policy& policy) {
  const CaseFacts f = GatherFacts(c);
  std::vector<const MemoryFacts*> gs;
  for (const MemoryFacts& m : f.memories) {
    if (m.reg.file == isa::RegFile::kTgsm) gs.push_back(&m);
  }
  if (gs.empty()) return false;
  const MemoryFacts& m = *gs[choices.Below(gs.size())];
  Instruction& dcl = c.shader.instructions[m.decl];
  // Raw: the byte count; structured: the stride (bytes) or the count.
  const bool count = dcl.op == Op::kDclTgsmStructured && choices.Below(2) == 0;
  uint32_t& n = dcl.operands[count ? 2 : 1].index;
  if (count) {
    n = NewSize(choices, n);
  } else {
    n = 4 * NewSize(choices, std::max(1u, n / 4));
    if (choices.Below(8) == 0) n = 32768;  // the whole budget (spec 1.8)
  }
  return true;
}

}  // namespace atomfuzz::fuzz
