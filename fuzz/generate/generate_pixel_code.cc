// The pixel stage's statements (docs/pixel-stage.md): the compute mix
// without sync, plus discards (P.3) and derivatives of SV_Position (P.5).
// Every condition here is defined in every lane, helper lanes included: a
// branch or discard on an undefined value leaves the rest of the run
// unknowable (spec 6.0), and the judge could check nothing after it.
#include <algorithm>

#include "fuzz/generate/generator_internal.h"

namespace atomfuzz::fuzz::gen {

using isa::Op;
using isa::Operand;

// After divergent flow the quad's lanes took different paths (P.5); in a
// loop, a later iteration comes after the body's divergent blocks too; per
// sample, SV_Position is one of two values (P.2).
bool Builder::DerivativesDefined() const {
  return !diverged_ && loop_depth_ == 0 && runs_ == 1;
}

void Builder::PixelStatement(uint32_t depth) {
  std::array<uint32_t, kPixelStatementKindCount> w = p_.pixel.statement_weights;
  if (depth >= std::min<uint32_t>(p_.max_depth, 4)) {  // r3 has 4 counters
    for (PixelStatementKind k :
         {PixelStatementKind::kIf, PixelStatementKind::kLoop,
          PixelStatementKind::kSwitch}) {
      w[static_cast<size_t>(k)] = 0;
    }
  }
  switch (static_cast<PixelStatementKind>(Pick(w))) {
    case PixelStatementKind::kAtomic: return Atomic();
    case PixelStatementKind::kAlu: return Alu();
    case PixelStatementKind::kLoad: return Load();
    case PixelStatementKind::kStore: return Store();
    case PixelStatementKind::kIf: return If(depth);
    case PixelStatementKind::kLoop: return Loop(depth);
    case PixelStatementKind::kSwitch: return Switch(depth);
    case PixelStatementKind::kDiscard: return Discard();
    case PixelStatementKind::kDerivative: return Derivative(depth);
  }
}

void Builder::Discard() {
  const Operand cond = DiscardTest();
  Emit(Chance(p_.pixel.discard_nz_per_mille) ? Op::kDiscardNz : Op::kDiscardZ,
       {cond});
}

Operand Builder::Compare(Operand src, uint32_t range) {
  const Op op = PickOp({Op::kAnd, Op::kULt, Op::kIEq, Op::kINe, Op::kUGe});
  const uint32_t k = op == Op::kAnd ? 1u << c_.InRange(0, 2)
                                    : c_.InRange(0, std::max(range, 1u));
  Emit(op, {Dst(kVal, kZ), src, isa::Imm(k)});
  return Src(kVal, kZ);
}

Operand Builder::DiscardTest() {
  std::array<uint32_t, kDiscardConditionCount> w =
      p_.pixel.discard_condition_weights;
  auto off = [&](DiscardCondition c) { w[static_cast<size_t>(c)] = 0; };
  if (!sample_reg_) off(DiscardCondition::kSample);
  // vCoverage is undefined in a helper lane (P.2), which runs discards too.
  if (!coverage_ || helpers_) off(DiscardCondition::kCoverage);
  if (!read_only_) off(DiscardCondition::kLoaded);
  if (!DerivativesDefined()) off(DiscardCondition::kDerivative);
  switch (static_cast<DiscardCondition>(Pick(w))) {
    case DiscardCondition::kPosition: {
      const auto comp = static_cast<uint8_t>(c_.Below(2));
      Emit(Op::kFtoU, {Dst(kVal, kW), Position(comp)});
      return Compare(Src(kVal, kW), comp == kX ? width_ : height_);
    }
    case DiscardCondition::kPrimitive: return Compare(Src(kIds, kY), groups_);
    case DiscardCondition::kSample:
      return Compare(InputComponent(*sample_reg_, kX), runs_);
    case DiscardCondition::kCoverage:
      Emit(Op::kAnd, {Dst(kVal, kZ), CoverageMask(),
                      isa::Imm(1u << c_.InRange(0, case_.draw.samples - 1))});
      return Src(kVal, kZ);
    case DiscardCondition::kLoaded: {
      Emit(Op::kIShl, {Dst(kVal, kW), Src(kIds, kX), isa::Imm(2)});
      Address a;
      a.operand = a.index = Src(kVal, kW);
      EmitLoad(*read_only_, a, Dst(kVal, kW));
      Emit(Op::kAnd,
           {Dst(kVal, kZ), Src(kVal, kW), isa::Imm(1u << c_.InRange(0, 31))});
      return Src(kVal, kZ);
    }
    case DiscardCondition::kDerivative:
      PositionDerivative();
      Emit(PickOp({Op::kIEq, Op::kINe}),
           {Dst(kVal, kZ), Src(kVal, kW), isa::Imm(c_.InRange(0, 1))});
      return Src(kVal, kZ);
  }
  return Src(kIds, kY);
}

// deriv_rtx of x and deriv_rty of y are 1.0, the crossed ones 0.0, in
// every form (P.5): ftoi makes them 1 and 0.
void Builder::PositionDerivative() {
  const Op op =
      PickOp({Op::kDerivRtx, Op::kDerivRty, Op::kDerivRtxCoarse,
              Op::kDerivRtxFine, Op::kDerivRtyCoarse, Op::kDerivRtyFine});
  Emit(op, {Dst(kVal, kW), Position(static_cast<uint8_t>(c_.Below(2)))});
  Emit(Op::kFtoI, {Dst(kVal, kW), Src(kVal, kW)});
}

void Builder::Derivative(uint32_t depth) {
  std::array<uint32_t, kDerivativeUseCount> w = p_.pixel.derivative_use_weights;
  // Else the oracle leaves it undefined: only stored.
  if (!DerivativesDefined()) {
    w[static_cast<size_t>(DerivativeUse::kAddress)] = 0;
    w[static_cast<size_t>(DerivativeUse::kCondition)] = 0;
  }
  const auto use = static_cast<DerivativeUse>(Pick(w));
  if (use == DerivativeUse::kAddress) return DerivativeAtomic();
  PositionDerivative();
  if (use == DerivativeUse::kValue) {
    const int r = NewResult();
    if (r < 0) return;
    Emit(Op::kMov, {Dst(results_[r].reg, results_[r].comp), Src(kVal, kW)});
    results_[r].safe = false;
    return;
  }
  Emit(PickOp({Op::kIEq, Op::kINe}),
       {Dst(kVal, kZ), Src(kVal, kW), isa::Imm(c_.InRange(0, 1))});
  if (depth >= std::min<uint32_t>(p_.max_depth, 4) ||
      Chance(p_.pixel.derivative_discard_per_mille)) {
    Emit(Chance(p_.pixel.discard_nz_per_mille) ? Op::kDiscardNz : Op::kDiscardZ,
         {Src(kVal, kZ)});
    return;
  }
  // Uniform across the quad: a branch, not divergent flow.
  Emit(PickOp({Op::kIfNz, Op::kIfZ}), {Src(kVal, kZ)});
  ++branch_depth_;
  Block(depth + 1, BodySize());
  --branch_depth_;
  Emit(Op::kEndIf, {});
}

// An atomic at word k + ftoi(d/dx of x) (or of another pair: + 0) of a
// raw or structured UAV.
void Builder::DerivativeAtomic() {
  Target* t = PickTarget(isa::kUavRaw | isa::kUavStructured, std::nullopt);
  if (t == nullptr || t->extent[0] < 2) return;
  const std::optional<Op> op = PickAtomicOpFor(t->memory_bit());
  if (!op) return;
  ++salt_;
  PositionDerivative();
  const uint32_t k = c_.InRange(0, t->extent[0] - 2);
  Address a;
  a.in_bounds = true;
  if (t->structured()) {
    Emit(Op::kIAdd, {Dst(kAddr, kX), Src(kVal, kW), isa::Imm(k)});
    Emit(Op::kMov,
         {Dst(kAddr, kY), isa::Imm(4 * c_.InRange(0, t->stride_words() - 1))});
    a.operand = Swizzle(kAddr, {kX, kY, kX, kX});
  } else {
    Emit(Op::kIMad,
         {Dst(kAddr, kX), Src(kVal, kW), isa::Imm(4), isa::Imm(4 * k)});
    a.operand = Src(kAddr, kX);
  }
  a.index = Src(kAddr, kX);
  a.offset = Src(kAddr, kY);
  const bool has_cmp =
      isa::Info(*op).operand_with_role(isa::Role::kComparand) >= 0;
  EmitAtomic(*op, *t, a,
             has_cmp ? static_cast<ComparandClass>(Pick(p_.comparand_weights))
                     : ComparandClass::kValue);
}

}  // namespace atomfuzz::fuzz::gen
