// Addresses and values. An address is built in words, coordinate by
// coordinate (spec 1.2): the aliasing shape decides which bits of a thread
// id feed which coordinate (so k threads share a word, or one word each),
// then the address class moves one coordinate to an edge (6.B), then the
// byte coordinate is scaled. Values are shaped by the operation so that the
// judge can read the order of a word's atomics off their returns.
//
// Uniform picks here choose only among equivalent spellings (a swizzle
// order, an element of a policy list); every aim is a policy weight.
#include <algorithm>
#include <array>
#include <bit>

#include "fuzz/generate/generator_internal.h"

namespace atomfuzz::fuzz::gen {

using isa::Op;
using isa::Operand;

namespace {

constexpr std::array<std::array<uint8_t, 3>, 6> kPermutations = {
    {{0, 1, 2}, {1, 0, 2}, {2, 0, 1}, {0, 2, 1}, {1, 2, 0}, {2, 1, 0}}};

// Huge coordinates (E-12, E-18): SKIP however the bounds are computed.
constexpr uint32_t kHugeIndex[] = {0x80000000u, 0xffffffffu, 0x7fffffffu,
                                   0x00010000u};
// In words: byte offsets 0xfffffffc, 0x80000000, 0xffffffc0 (E-12).
constexpr uint32_t kHugeWord[] = {0x3fffffffu, 0x20000000u, 0x3ffffff0u};

}  // namespace

uint32_t Builder::InterestingValue() {
  const std::vector<uint32_t>& v = p_.interesting_values;
  return v.empty() ? 0 : v[c_.Below(v.size())];
}

Operand Builder::Id() {
  if (pixel_) return PixelId();
  switch (static_cast<IdSource>(Pick(p_.id_source_weights))) {
    case IdSource::kFlat: return Src(kIds, kX);
    case IdSource::kGroup: return Src(kIds, kY);
    case IdSource::kGlobal: return Src(kIds, kZ);
    case IdSource::kSystemValue: break;
  }
  Operand o;
  o.file = c_.Below(2) == 0 ? isa::RegFile::kThreadID
                            : isa::RegFile::kThreadIDInGroup;
  o.selection = isa::Selection::kSelect1;
  o.swizzle = {static_cast<uint8_t>(c_.Below(3)), 0, 0, 0};
  return o;
}

// Distinct per thread and, inside loops, per iteration (r0.w, set at the top
// of each loop body).
Operand Builder::UniqueId() { return Src(kIds, loop_depth_ > 0 ? kW : kZ); }

const Result* Builder::PickResult(bool safe_only) {
  std::vector<const Result*> pool;
  for (const Result& r : results_) {
    if (r.safe || !safe_only) pool.push_back(&r);
  }
  return pool.empty() ? nullptr : pool[c_.Below(pool.size())];
}

// 1. Which thread-dependent value feeds the coordinates (spec 2.1), and
// where in r1 each coordinate goes (E-10).
AddressPlan Builder::PlanAddress(const Target& t, AddressClass cls) {
  AddressPlan plan;
  const Operand id = t.tgsm ? Src(kIds, kX) : Src(kIds, kZ);
  if (cls == AddressClass::kFromReturn) {
    if (const Result* r = PickResult(true)) plan.source = Src(r->reg, r->comp);
  }
  if (!plan.source) {
    switch (static_cast<Aliasing>(Pick(p_.aliasing_weights))) {
      case Aliasing::kAllThreadsOneWord: break;
      case Aliasing::kThreadsPerWord:
        plan.source = id;
        plan.shift = c_.InRange(
            1, std::clamp<uint32_t>(p_.max_threads_per_word_log2, 1, 16));
        break;
      case Aliasing::kOneWordPerThread: plan.source = id; break;
      case Aliasing::kOneWordPerGroup:
        if (!t.tgsm) plan.source = Src(kIds, kY);  // g# is per group anyway
        break;
    }
  }
  if (Chance(p_.swizzled_address_per_mille)) {
    plan.perm = kPermutations[c_.Below(t.coords == 3   ? 6
                                       : t.coords == 2 ? 2
                                                       : 1)];
  }
  plan.edge = EdgeCoordinate(t, cls);
  return plan;
}

// The coordinate an address class moves to an edge.
int Builder::EdgeCoordinate(const Target& t, AddressClass cls) {
  if (t.typed() && t.coords > 1) {
    std::array<uint32_t, 3> w = p_.edge_coordinate_weights;
    for (int i = t.coords; i < 3; ++i) w[static_cast<size_t>(i)] = 0;
    return static_cast<int>(Pick(w));
  }
  if (!t.structured()) return 0;
  // The structure index, or the byte offset inside one; kLastValid: either.
  if (cls == AddressClass::kOffsetPastStride ||
      cls == AddressClass::kMisaligned) {
    return 1;
  }
  if (cls != AddressClass::kLastValid) return 0;
  const std::array<uint32_t, 2> w = {p_.edge_coordinate_weights[0],
                                     p_.edge_coordinate_weights[1]};
  return static_cast<int>(Pick(w));
}

// 2. In-range coordinates from the source's bits: each takes as many as fit
// its extent, plus a constant that keeps it in range. The byte offset inside
// a structure takes the lowest bits, so neighbouring threads share one.
void Builder::ExtractBits(const Target& t, bool replaced, AddressPlan& plan) {
  const std::array<int, 3> order = t.structured() ? std::array<int, 3>{1, 0, 2}
                                                  : std::array<int, 3>{0, 1, 2};
  for (int i : order) {
    if (i >= t.coords || (replaced && i == plan.edge)) continue;
    const auto k = static_cast<size_t>(i);
    const uint32_t bits =
        plan.source && plan.shift < 32
            ? std::min<uint32_t>(Log2(FloorPow2(t.extent[k])), 32 - plan.shift)
            : 0;
    plan.add[k] = c_.InRange(0, t.extent[k] - (1u << bits));
    if (bits == 0) continue;
    plan.reg[k] = true;
    const uint8_t comp = plan.perm[k];
    if (PickOp({Op::kUbfe, Op::kAnd}) == Op::kUbfe) {
      Emit(Op::kUbfe, {Dst(kAddr, comp), isa::Imm(bits), isa::Imm(plan.shift),
                       *plan.source});
    } else {
      Operand from = *plan.source;
      if (plan.shift > 0) {
        Emit(Op::kUShr, {Dst(kAddr, comp), from, isa::Imm(plan.shift)});
        from = Src(kAddr, comp);
      }
      Emit(Op::kAnd, {Dst(kAddr, comp), from, isa::Imm((1u << bits) - 1)});
    }
    plan.shift += bits;
  }
}

// 3. The class moves the edge coordinate (spec 1.3, 6.B).
void Builder::MoveToEdge(const Target& t, AddressClass cls, AddressPlan& plan) {
  const auto k = static_cast<size_t>(plan.edge);
  const uint32_t extent = t.extent[k];
  switch (cls) {
    case AddressClass::kLastValid: plan.add[k] = extent - 1; break;
    case AddressClass::kFirstOutOfBounds: plan.add[k] = extent; break;
    case AddressClass::kHuge:
      plan.add[k] = plan.edge == t.byte_coord
                        ? kHugeWord[c_.Below(std::size(kHugeWord))]
                        : kHugeIndex[c_.Below(std::size(kHugeIndex))];
      break;
    case AddressClass::kIndexWrap32: {
      // E-17: index * (stride / 4) wraps 32 bits to a word in the view. With
      // a 4-byte stride only the byte address can wrap: 2^30 * 4.
      const uint64_t s = t.stride_words();
      plan.add[k] +=
          s >= 2 ? static_cast<uint32_t>(((uint64_t{1} << 32) + s - 1) / s)
                 : 0x40000000u;
      break;
    }
    case AddressClass::kOffsetPastStride:
      plan.add[k] += extent;  // E-14: an offset >= the stride poisons
      break;
    case AddressClass::kMisaligned:
      plan.misalign = c_.InRange(1, 3);  // E-13
      break;
    default: break;
  }
}

// 4. The word every thread hits, when it is one; or its index in r1.w, for
// comparands that match a ramp (before the constants join the registers).
void Builder::LinearWord(const Target& t, const AddressPlan& plan,
                         bool want_linear, Address& a) {
  std::array<uint32_t, 3> mult = {1, 0, 0};
  if (t.structured()) {
    mult = {t.stride_words(), 1, 0};
  } else if (t.typed()) {
    mult = {1, t.extent[0], t.extent[0] * t.extent[1]};
  }
  uint32_t constant = 0;
  for (size_t k = 0; k < static_cast<size_t>(t.coords); ++k) {
    constant += plan.add[k] * mult[k];
  }
  if (!a.in_bounds) return;
  if (!plan.AnyReg()) {
    a.word = constant;
    return;
  }
  if (!want_linear) return;
  Operand acc = isa::Imm(constant);
  for (size_t k = 0; k < static_cast<size_t>(t.coords); ++k) {
    if (!plan.reg[k]) continue;
    Emit(Op::kIMad,
         {Dst(kAddr, kW), Src(kAddr, plan.perm[k]), isa::Imm(mult[k]), acc});
    acc = Src(kAddr, kW);
  }
  a.linear = true;
}

// 5. Register coordinates get their constants, the byte coordinate its
// scale; returns the values of the constant ones.
std::array<uint32_t, 3> Builder::FinishCoordinates(const Target& t,
                                                   const AddressPlan& plan) {
  std::array<uint32_t, 3> imm = {0, 0, 0};
  for (size_t k = 0; k < static_cast<size_t>(t.coords); ++k) {
    const bool bytes = static_cast<int>(k) == t.byte_coord;
    const uint32_t add = bytes ? 4 * plan.add[k] + plan.misalign : plan.add[k];
    const uint8_t comp = plan.perm[k];
    const Operand dst = Dst(kAddr, comp), src = Src(kAddr, comp);
    if (!plan.reg[k]) {
      imm[k] = add;
    } else if (!bytes) {
      if (add != 0) Emit(Op::kIAdd, {dst, src, isa::Imm(add)});
    } else if (PickOp({Op::kIShl, Op::kIMad, Op::kUMad}) == Op::kIShl) {
      Emit(Op::kIShl, {dst, src, isa::Imm(2)});
      if (add != 0) Emit(Op::kIAdd, {dst, src, isa::Imm(add)});
    } else {
      Emit(PickOp({Op::kIMad, Op::kUMad}),
           {dst, src, isa::Imm(4), isa::Imm(add)});
    }
  }
  return imm;
}

// 6. Immediates when every coordinate is constant (E-11), else r1 with the
// coordinates where the permutation put them (E-10).
void Builder::AddressOperands(const Target& t, const AddressPlan& plan,
                              const std::array<uint32_t, 3>& imm, Address& a) {
  if (!plan.AnyReg() && Chance(p_.immediate_address_per_mille)) {
    a.operand =
        t.coords == 1 ? isa::Imm(imm[0]) : isa::Imm4(imm[0], imm[1], imm[2], 0);
    a.index = isa::Imm(imm[0]);
    a.offset = isa::Imm(imm[1]);
    return;
  }
  std::array<uint32_t, 4> lanes = {0, 0, 0, 0};
  uint8_t mask = 0;
  for (size_t k = 0; k < static_cast<size_t>(t.coords); ++k) {
    if (plan.reg[k]) continue;
    lanes[plan.perm[k]] = imm[k];
    mask |= static_cast<uint8_t>(1u << plan.perm[k]);
  }
  if (mask != 0) {
    Operand dst = Dst(kAddr, kX);
    dst.mask = mask;
    Emit(
        Op::kMov,
        {dst, std::popcount(mask) == 1
                  ? isa::Imm(lanes[static_cast<size_t>(std::countr_zero(mask))])
                  : isa::Imm4(lanes[0], lanes[1], lanes[2], lanes[3])});
  }
  const uint8_t p0 = plan.perm[0], p1 = plan.perm[1], p2 = plan.perm[2];
  switch (t.coords) {
    case 1:
      a.operand = Chance(p_.swizzled_address_per_mille)
                      ? Swizzle(kAddr, {p0, 1, 2, 3})  // E-10: .yzw ignored
                      : Src(kAddr, p0);
      break;
    case 2: a.operand = Swizzle(kAddr, {p0, p1, p0, p0}); break;
    default: a.operand = Swizzle(kAddr, {p0, p1, p2, p0}); break;
  }
  a.index = Src(kAddr, p0);
  a.offset = Src(kAddr, p1);
}

Address Builder::BuildAddress(const Target& t, AddressClass cls,
                              bool want_linear) {
  if (pixel_ && cls == AddressClass::kInBounds &&
      Chance(p_.pixel.position_address_per_mille)) {
    if (std::optional<Address> a = PositionAddress(t)) return *a;
  }
  AddressPlan plan = PlanAddress(t, cls);
  const bool replaced = cls == AddressClass::kLastValid ||
                        cls == AddressClass::kFirstOutOfBounds ||
                        cls == AddressClass::kHuge;
  ExtractBits(t, replaced, plan);
  MoveToEdge(t, cls, plan);
  Address a;
  a.in_bounds = cls == AddressClass::kInBounds ||
                cls == AddressClass::kLastValid ||
                cls == AddressClass::kFromReturn;
  LinearWord(t, plan, want_linear, a);
  AddressOperands(t, plan, FinishCoordinates(t, plan), a);
  return a;
}

}  // namespace atomfuzz::fuzz::gen
