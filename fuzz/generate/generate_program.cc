// The instruction stream: the id prologue, g# filled and fenced, a mix of
// statements nested in if/loop/switch (atomics in divergent control flow
// included), barriers where they are legal (sync with _t only in flow that
// is uniform across the group, E-30), and an epilogue that brings g# and
// the values kept in registers to the output UAV, where the judge sees them.
#include <algorithm>
#include <bit>

#include "fuzz/generate/generator_internal.h"

namespace atomfuzz::fuzz::gen {

using isa::Op;
using isa::Operand;

namespace {

Operand SystemValue(isa::RegFile file, uint8_t comp) {
  Operand o;
  o.file = file;
  o.selection = isa::Selection::kSelect1;
  o.swizzle = {comp, 0, 0, 0};
  return o;
}

constexpr uint8_t kBarrier = isa::kSyncTgsm | isa::kSyncThreads;

}  // namespace

void Builder::Prologue() {
  Emit(Op::kMov, {Dst(kIds, kX),
                  SystemValue(isa::RegFile::kThreadIDInGroupFlattened, 0)});
  const auto gid = [](uint8_t c) {
    return SystemValue(isa::RegFile::kThreadGroupID, c);
  };
  if (case_.groups[1] == 1 && case_.groups[2] == 1) {
    Emit(Op::kMov, {Dst(kIds, kY), gid(kX)});
  } else {
    Emit(Op::kIMad,
         {Dst(kIds, kY), gid(kZ), isa::Imm(case_.groups[1]), gid(kY)});
    Emit(Op::kIMad,
         {Dst(kIds, kY), Src(kIds, kY), isa::Imm(case_.groups[0]), gid(kX)});
  }
  Emit(Op::kIMad,
       {Dst(kIds, kZ), Src(kIds, kY), isa::Imm(group_threads_), Src(kIds, kX)});
}

// g# is undefined at group start (E-22): fill it, then a barrier with the
// g# fence so every thread sees the whole fill (spec 2.2).
void Builder::FillTgsm() {
  bool any = false;
  for (Target& t : targets_) {
    if (!t.tgsm || Chance(p_.tgsm_uninitialized_per_mille)) continue;
    t.tgsm_initialized = true;
    WordLoop(t, Chance(p_.tgsm_init_one_thread_per_mille), std::nullopt);
    any = true;
  }
  if (any) Sync(true);
}

void Builder::WordLoop(const Target& t, bool one_thread,
                       std::optional<uint32_t> copy_base) {
  if (one_thread) Emit(Op::kIfZ, {Src(kIds, kX)});
  // r1.x: the word (raw) or structure this thread handles next.
  Emit(Op::kMov, {Dst(kAddr, kX), one_thread ? isa::Imm(0) : Src(kIds, kX)});
  Emit(Op::kLoop, {});
  Emit(Op::kUGe, {Dst(kVal, kZ), Src(kAddr, kX), isa::Imm(t.extent[0])});
  Emit(Op::kBreakcNz, {Src(kVal, kZ)});
  if (!t.structured()) {
    Emit(Op::kIShl, {Dst(kAddr, kY), Src(kAddr, kX), isa::Imm(2)});
  }
  for (uint32_t k = 0; k < t.stride_words(); ++k) {
    if (copy_base) {
      CopyWord(t, k, *copy_base);
    } else {
      FillWord(t, k);
    }
  }
  Emit(Op::kIAdd, {Dst(kAddr, kX), Src(kAddr, kX),
                   isa::Imm(one_thread ? 1 : group_threads_)});
  Emit(Op::kEndLoop, {});
  if (one_thread) Emit(Op::kEndIf, {});
}

// Where word k of the current structure (raw: the current word) is, as
// the operands after the memory of a raw or structured access.
isa::OperandList Builder::WordOperands(const Target& t, uint32_t k) {
  if (!t.structured()) return {Src(kAddr, kY)};
  return {Src(kAddr, kX), isa::Imm(4 * k)};
}

// Stores base + step * word, the formula Target keeps for comparands.
void Builder::FillWord(const Target& t, uint32_t k) {
  const uint32_t s = t.stride_words();
  Emit(Op::kIMad, {Dst(kVal, kX), Src(kAddr, kX), isa::Imm(t.init_step * s),
                   isa::Imm(t.init_base + t.init_step * k)});
  Operand g = isa::Tgsm(t.slot);
  g.selection = isa::Selection::kMask;
  g.mask = 1;
  isa::OperandList ops = WordOperands(t, k);
  ops.insert(ops.begin(), g);
  ops.push_back(Src(kVal, kX));
  Emit(t.structured() ? Op::kStoreStructured : Op::kStoreRaw, std::move(ops));
}

// Copies the word to base + group * words + word of the output UAV.
void Builder::CopyWord(const Target& t, uint32_t k, uint32_t base) {
  Operand g = isa::Tgsm(t.slot);
  g.selection = isa::Selection::kSwizzle;
  g.swizzle = {0, 0, 0, 0};
  isa::OperandList ops = WordOperands(t, k);
  ops.insert(ops.begin(), Dst(kVal, kX));
  ops.push_back(g);
  Emit(t.structured() ? Op::kLdStructured : Op::kLdRaw, std::move(ops));
  Emit(Op::kIMad,
       {Dst(kAddr, kZ), Src(kIds, kY), isa::Imm(t.words), isa::Imm(base + k)});
  Emit(Op::kIMad, {Dst(kAddr, kZ), Src(kAddr, kX), isa::Imm(t.stride_words()),
                   Src(kAddr, kZ)});
  Emit(Op::kIShl, {Dst(kAddr, kZ), Src(kAddr, kZ), isa::Imm(2)});
  Operand out = isa::Uav(output_slot_);
  out.selection = isa::Selection::kMask;
  out.mask = 1;
  Emit(Op::kStoreRaw, {out, Src(kAddr, kZ), Src(kVal, kX)});
}

void Builder::Block(uint32_t depth, uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) Statement(depth);
}

void Builder::Statement(uint32_t depth) {
  if (pixel_) return PixelStatement(depth);
  std::array<uint32_t, kStatementKindCount> w = p_.statement_weights;
  if (depth >= std::min<uint32_t>(p_.max_depth, 4)) {  // r3 has 4 counters
    for (StatementKind k :
         {StatementKind::kIf, StatementKind::kLoop, StatementKind::kSwitch}) {
      w[static_cast<size_t>(k)] = 0;
    }
  }
  switch (static_cast<StatementKind>(Pick(w))) {
    case StatementKind::kAtomic: return Atomic();
    case StatementKind::kAlu: return Alu();
    case StatementKind::kLoad: return Load();
    case StatementKind::kStore: return Store();
    case StatementKind::kIf: return If(depth);
    case StatementKind::kLoop: return Loop(depth);
    case StatementKind::kSwitch: return Switch(depth);
    case StatementKind::kSync: return Sync(false);
  }
}

// A condition in r2.z: from thread ids or returned values when divergent,
// from the group id (uniform within the group) otherwise.
Operand Builder::Condition(bool divergent) {
  Operand src = Src(kIds, kY);
  if (divergent && pixel_) {
    // Never a returned value: a helper lane's is undefined (P.3), and a
    // branch on it would leave the whole run unknowable (spec 6.0).
    src = Id();
  } else if (divergent) {
    const Result* r = PickResult(true);
    src = r != nullptr && static_cast<ValueClass>(Pick(p_.value_weights)) ==
                              ValueClass::kFromReturn
              ? Src(r->reg, r->comp)
              : Id();
  }
  const Op op = PickOp({Op::kAnd, Op::kULt, Op::kIEq, Op::kINe, Op::kUGe});
  const uint32_t k = op == Op::kAnd
                         ? 1u << c_.InRange(0, 2)
                         : c_.InRange(0, divergent ? group_threads_ : groups_);
  Emit(op, {Dst(kVal, kZ), src, isa::Imm(k)});
  return Src(kVal, kZ);
}

void Builder::If(uint32_t depth) {
  const bool divergent = Chance(p_.divergent_condition_per_mille);
  Emit(PickOp({Op::kIfNz, Op::kIfZ}), {Condition(divergent)});
  diverged_ = diverged_ || divergent;
  divergent_depth_ += divergent;
  ++branch_depth_;
  Block(depth + 1, BodySize());
  if (Chance(p_.else_per_mille)) {
    Emit(Op::kElse, {});
    Block(depth + 1, BodySize());
  }
  Emit(Op::kEndIf, {});
  --branch_depth_;
  divergent_depth_ -= divergent;
}

// A counted loop on r3.<depth>; the count differs per thread when divergent.
void Builder::Loop(uint32_t depth) {
  const auto c = static_cast<uint8_t>(depth & 3);
  const uint32_t n =
      c_.InRange(1, std::max<uint32_t>(1, p_.max_loop_iterations));
  const bool divergent = Chance(p_.divergent_loop_per_mille);
  if (divergent) {
    Emit(Op::kAnd, {Dst(kLoops, c), Id(), isa::Imm(1)});
    Emit(Op::kIAdd, {Dst(kLoops, c), Src(kLoops, c), isa::Imm(n)});
  } else {
    Emit(Op::kMov, {Dst(kLoops, c), isa::Imm(n)});
  }
  Emit(Op::kLoop, {});
  diverged_ = diverged_ || divergent;
  if (PickOp({Op::kBreakcZ, Op::kBreakcNz}) == Op::kBreakcZ) {
    Emit(Op::kBreakcZ, {Src(kLoops, c)});
  } else {
    Emit(Op::kIEq, {Dst(kVal, kW), Src(kLoops, c), isa::Imm(0)});
    Emit(Op::kBreakcNz, {Src(kVal, kW)});
  }
  Emit(Op::kIAdd, {Dst(kLoops, c), Src(kLoops, c), isa::Imm(0xffffffffu)});
  // Unique per thread and iteration, for traceable values.
  Emit(Op::kIMad, {Dst(kIds, kW), Src(kLoops, c), isa::Imm(total_threads_),
                   Src(kIds, kZ)});
  divergent_depth_ += divergent;
  ++loop_depth_;
  Block(depth + 1, BodySize());
  --loop_depth_;
  divergent_depth_ -= divergent;
  Emit(Op::kEndLoop, {});
}

void Builder::Switch(uint32_t depth) {
  const bool divergent = Chance(p_.divergent_condition_per_mille);
  Emit(Op::kAnd,
       {Dst(kVal, kZ), divergent ? Id() : Src(kIds, kY), isa::Imm(3)});
  Emit(Op::kSwitch, {Src(kVal, kZ)});
  diverged_ = diverged_ || divergent;
  divergent_depth_ += divergent;
  ++branch_depth_;
  const uint32_t cases = c_.InRange(1, 3);
  const uint32_t first = c_.InRange(0, 3);
  for (uint32_t i = 0; i < cases; ++i) {
    Emit(Op::kCase, {isa::Imm((first + i) & 3)});
    Block(depth + 1, BodySize());
    Emit(Op::kBreak, {});
  }
  if (Chance(p_.default_case_per_mille)) {
    Emit(Op::kDefault, {});
    Block(depth + 1, BodySize());
    Emit(Op::kBreak, {});
  }
  Emit(Op::kEndSwitch, {});
  --branch_depth_;
  divergent_depth_ -= divergent;
}

// `barrier`: a thread barrier with the g# fence, before g# is read by other
// threads. Otherwise any variant, without _t where flow may diverge (E-30;
// fences there are legal, E-29).
void Builder::Sync(bool barrier) {
  std::array<uint32_t, kSyncVariants.size()> w = p_.sync_weights;
  for (size_t i = 0; i < w.size(); ++i) {
    const uint8_t f = kSyncVariants[i];
    if (barrier ? (f & kBarrier) != kBarrier
                : Divergent() && (f & isa::kSyncThreads) != 0) {
      w[i] = 0;
    }
  }
  uint8_t flags = kSyncVariants[Pick(w)];
  if (barrier && (flags & kBarrier) != kBarrier) flags = kBarrier;
  if (!barrier && Divergent())
    flags &= static_cast<uint8_t>(~isa::kSyncThreads);
  if (flags == 0) flags = isa::kSyncTgsm;
  Emit(Op::kSync, {}, flags);
}

void Builder::CopyTgsm() {
  bool any = false;
  for (const Target& t : targets_) any = any || t.tgsm;
  if (!any) return;
  Sync(true);  // every thread's g# atomics happen before the reads (2.2)
  for (const Target& t : targets_) {
    if (!t.tgsm ||
        uint64_t{groups_} * t.words + output_words_ > kMaxOutputWords) {
      continue;
    }
    const uint32_t base = output_words_;
    output_words_ += groups_ * t.words;
    WordLoop(t, Chance(p_.tgsm_init_one_thread_per_mille), base);
  }
}

// Each thread's results to its own words of the output UAV, one store per
// result register (masks .x to .xyzw, spec 1.7).
void Builder::StoreResults() {
  const auto per_thread = static_cast<uint32_t>(results_.size());
  if (per_thread == 0 ||
      uint64_t{total_threads_} * per_thread + output_words_ > kMaxOutputWords) {
    return;
  }
  const uint32_t base = output_words_;
  output_words_ += total_threads_ * per_thread;
  Emit(Op::kIMad, {Dst(kAddr, kX), Src(kIds, kZ), isa::Imm(4 * per_thread),
                   isa::Imm(4 * base)});
  const uint32_t last =
      kFirstResult +
      *std::max_element(result_regs_used_.begin(), result_regs_used_.end());
  uint32_t advance = 0;  // bytes the previous store covered
  for (uint32_t reg = kFirstResult; reg < last; ++reg) {
    std::array<uint8_t, 4> comps = {0, 0, 0, 0};
    uint32_t n = 0;
    for (const Result& r : results_) {
      if (r.reg == reg) comps[n++] = r.comp;
    }
    if (n == 0) continue;
    std::sort(comps.begin(), comps.begin() + n);
    for (uint32_t k = n; k < 4; ++k) comps[k] = comps[n - 1];
    if (advance != 0) {
      Emit(Op::kIAdd, {Dst(kAddr, kX), Src(kAddr, kX), isa::Imm(advance)});
    }
    Operand out = isa::Uav(output_slot_);
    out.selection = isa::Selection::kMask;
    out.mask = static_cast<uint8_t>((1u << n) - 1);
    Emit(Op::kStoreRaw, {out, Src(kAddr, kX),
                         n == 1 ? Src(reg, comps[0]) : Swizzle(reg, comps)});
    advance = 4 * n;
  }
}

}  // namespace atomfuzz::fuzz::gen
