// Values and comparands of atomics and stores. Traceable values (the default)
// make every thread's contribution recognisable in the word and in the
// returns: powers of two to add, one-hot bits for and/or/xor, values unique
// per thread for exchanges and min/max, so the judge can rebuild a word's
// order without searching (spec 2.1, 2.4; E-25, E-26).
#include "fuzz/generate/generator_internal.h"

namespace atomfuzz::fuzz::gen {

using isa::Op;
using isa::Operand;
using isa::Rmw;

namespace {

// Multiplying by an odd constant is a bijection mod 2^32: unique values,
// spread over both signs (E-2) and both halves of the unsigned range.
constexpr uint32_t kSpread = 0x9e3779b1u;

// Operations after which a word may hold an earlier value again (ABA): two
// threads' returns of the same value leave the judge a choice to search.
bool MayRevisit(Rmw rmw) {
  return rmw == Rmw::kXor || rmw == Rmw::kExch || rmw == Rmw::kCmpExch;
}

}  // namespace

ValueOperand Builder::Value(Rmw rmw, ValueClass cls, uint8_t comp) {
  if (p_.traceable && MayRevisit(rmw)) cls = ValueClass::kTraceable;
  // The pixel's covered samples (P.2): defined wherever a lane is live.
  // Pixels share masks, so not where the value must tell them apart.
  if (pixel_ && coverage_ && cls != ValueClass::kTraceable &&
      Chance(p_.pixel.coverage_value_per_mille)) {
    return {CoverageMask()};
  }
  const Operand dst = Dst(kVal, comp);
  const Operand here = Src(kVal, comp);
  switch (cls) {
    case ValueClass::kConstant: return {isa::Imm(InterestingValue())};
    case ValueClass::kTraceable:
      switch (rmw) {
        case Rmw::kIAdd:
        case Rmw::kOr:
          // 1 << (id + salt): ishl reads only the low 5 bits of the count.
          Emit(Op::kIAdd, {dst, UniqueId(), isa::Imm(salt_)});
          Emit(Op::kIShl, {dst, isa::Imm(1), here});
          return {here};
        case Rmw::kAnd:  // every bit but the thread's one
          Emit(Op::kIAdd, {dst, UniqueId(), isa::Imm(salt_)});
          Emit(Op::kBfi,
               {dst, isa::Imm(1), here, isa::Imm(0), isa::Imm(0xffffffffu)});
          return {here};
        case Rmw::kExch:
        case Rmw::kCmpExch: {
          const uint32_t step = 2 * c_.InRange(0, 7) + 1;
          Emit(Op::kIMad, {dst, UniqueId(), isa::Imm(step),
                           isa::Imm(InterestingValue() + (salt_ << 16))});
          return {here, step};
        }
        default:  // xor (no xor of a few of them is 0), min and max
          Emit(Op::kIMad, {dst, UniqueId(), isa::Imm(kSpread),
                           isa::Imm(InterestingValue() + salt_ * kSpread)});
          return {here, kSpread};
      }
    case ValueClass::kThreadLinear:
      Emit(PickOp({Op::kIMad, Op::kUMad}),
           {dst, Id(), isa::Imm(c_.InRange(1, 4)),
            isa::Imm(InterestingValue())});
      return {here};
    case ValueClass::kSignedMix: {
      // E-2: the sign depends on the thread; the magnitudes are extremes.
      uint32_t neg = InterestingValue(), pos = InterestingValue();
      neg |= 0x80000000u;
      pos &= 0x7fffffffu;
      Emit(Op::kAnd, {Dst(kVal, kW), Id(), isa::Imm(1)});
      Emit(Op::kMovc, {dst, Src(kVal, kW), isa::Imm(neg), isa::Imm(pos)});
      return {here};
    }
    case ValueClass::kNearWrap:  // E-1
      return {isa::Imm(0xffffffffu - c_.InRange(0, 15))};
    case ValueClass::kFromReturn: {
      const Result* r = PickResult(true);
      if (r == nullptr) r = PickResult(false);
      if (r != nullptr) return {Src(r->reg, r->comp)};
      return {isa::Imm(InterestingValue())};
    }
    case ValueClass::kRandom: return {isa::Imm(c_.Word())};
  }
  return {isa::Imm(0)};
}

// E-5: the comparand stays distinct from the value; E-6: it often fails,
// and kMatchesInit makes the first compare on a word succeed.
Operand Builder::Comparand(const Target& t, const Address& a,
                           const ValueOperand& v, ComparandClass cls) {
  const bool known = !t.tgsm || t.tgsm_initialized;
  if (cls == ComparandClass::kChain && v.thread_step != 0) {
    // What the thread before stores: exchange chains (E-26).
    Emit(Op::kIAdd, {Dst(kVal, kY), v.operand, isa::Imm(0u - v.thread_step)});
    return Src(kVal, kY);
  }
  if (cls != ComparandClass::kValue && known && a.in_bounds) {
    if (a.word) {
      const uint32_t w = *a.word;
      return isa::Imm(
          t.formula ? t.init_base + t.init_step * w
                    : case_.resources[static_cast<size_t>(t.resource)].init[w]);
    }
    if (t.formula && t.init_step == 0) return isa::Imm(t.init_base);
    if (t.formula && a.linear) {
      Emit(Op::kIMad, {Dst(kVal, kY), Src(kAddr, kW), isa::Imm(t.init_step),
                       isa::Imm(t.init_base)});
      return Src(kVal, kY);
    }
  }
  Operand cmp =
      Value(Rmw::kCmpExch, static_cast<ValueClass>(Pick(p_.value_weights)), kY)
          .operand;
  return cmp;
}

}  // namespace atomfuzz::fuzz::gen
