// Structured control flow over lane masks. Each block keeps the lanes that
// entered it; lanes leave through break/continue/ret and come back where
// their block ends, so a wave stays in lockstep and sync_*_t is free.
#include <algorithm>

#include "targets/fast/handlers.h"
#include "targets/fast/wave.h"

namespace atomfuzz::targets::fast {
namespace {

using isa::Op;

// Lanes whose source lane 0 component is (non)zero stay active, and are
// the frame's taken lanes.
template <bool kNonzero>
void If(Wave& w, const Decoded& d) {
  Frame& f = w.Push(Frame::Kind::kIf);
  const uint32_t lanes = w.lanes;
  const uint32_t* const v = w.Slot(d.src[0][0]);
  uint32_t* const active = w.active.data();
  uint32_t* const taken = f.taken.data();
  uint32_t any = 0;
  for (uint32_t l = 0; l < lanes; ++l) {
    const uint32_t hit = (v[l] != 0) == kNonzero ? ~0u : 0u;
    taken[l] = active[l] & hit;
    active[l] = taken[l];
    any |= taken[l];
  }
  if (any == 0) w.pc = d.target;  // straight to else/endif
}

void Else(Wave& w, const Decoded& d) {
  Frame& f = w.Top();
  for (uint32_t l = 0; l < w.lanes; ++l)
    w.active[l] = f.parent[l] & ~f.taken[l];
  if (!w.Any(w.active)) w.pc = d.target;  // straight to endif
}

// The innermost block ends: its frame goes and its lanes come back, less
// those that enclosing frames hold out. Not inlined, so that EndLoop's
// usual path (another iteration) needs few registers.
[[gnu::noinline]] void EndFrame(Wave& w) {
  Frame& f = w.Top();
  Mask parent;
  parent.swap(f.parent);
  w.Pop();
  w.Restore(parent);
  f.parent.swap(parent);  // keep the allocation for the next push
}

void EndIfSafe(Wave& w, const Decoded&) { EndFrame(w); }

void Loop(Wave& w, const Decoded&) { w.Push(Frame::Kind::kLoop); }

void EndLoop(Wave& w, const Decoded& d) {
  Frame& f = w.Top();
  // Lanes that continued rejoin for the next iteration; broken ones wait.
  // The vectors' data in locals (stores could otherwise alias w and f, and
  // each lane reloaded both), in a plain loop: vectorized, its alias checks
  // cost more than a small group's lanes.
  const uint32_t lanes = w.lanes;
  uint32_t* const active = w.active.data();
  uint32_t* const continued = f.continued.data();
  const uint32_t* const entered = f.parent.data();
  const uint32_t* const broken = f.broken.data();
  const uint32_t* const returned = w.returned.data();
  uint64_t* const iterations = w.iterations.data();
  uint32_t any = 0;
  uint64_t most = 0;
#pragma clang loop vectorize(disable)
  for (uint32_t l = 0; l < lanes; ++l) {
    const uint32_t on = entered[l] & ~broken[l] & ~returned[l];
    continued[l] = 0;
    active[l] = on;
    any |= on;
    iterations[l] += on & 1u;
    most = std::max(most, iterations[l]);
  }
  if (most > w.max_iterations) w.over_budget = w.stop = true;
  if (any) {
    w.pc = d.target + 1;  // the body, after the loop instruction
    return;
  }
  EndFrame(w);
}

// The innermost frame that `break` (any breakable) or `continue` (loops)
// leaves.
Frame* Innermost(Wave& w, bool loops_only) {
  for (size_t i = w.depth; i-- > 0;) {
    Frame& f = w.frames[i];
    if (f.kind == Frame::Kind::kLoop ||
        (!loops_only && f.kind == Frame::Kind::kSwitch)) {
      return &f;
    }
  }
  return nullptr;
}

// Whether an active lane takes a break/continue/ret: kTest 0 always, 1 if
// its condition is zero (_z), 2 if nonzero (_nz). `active` is its mask.
template <int kTest>
inline uint32_t Takes(uint32_t active, uint32_t condition) {
  if constexpr (kTest == 0) return active;
  return (condition != 0) == (kTest == 2) ? active : 0u;
}

// Moves the lanes that take it from the active mask to `into` (a frame's
// broken or continued lanes, or the returned ones).
template <int kTest>
void Leave(Wave& w, const Decoded& d, uint32_t* into) {
  const uint32_t lanes = w.lanes;
  uint32_t* const active = w.active.data();
  const uint32_t* const condition = w.Slot(d.src[0][0]);
  for (uint32_t l = 0; l < lanes; ++l) {
    const uint32_t taken = Takes<kTest>(active[l], condition[l]);
    into[l] |= taken;
    active[l] &= ~taken;
  }
}

template <int kTest>
void Break(Wave& w, const Decoded& d) {
  Frame* f = Innermost(w, false);
  if (f == nullptr) return;  // the validator rejects it; be safe anyway
  Leave<kTest>(w, d, f->broken.data());
}

template <int kTest>
void Continue(Wave& w, const Decoded& d) {
  Frame* f = Innermost(w, true);
  if (f == nullptr) return;
  Leave<kTest>(w, d, f->continued.data());
}

template <int kTest>
void Ret(Wave& w, const Decoded& d) {
  Leave<kTest>(w, d, w.returned.data());
  const uint32_t* const returned = w.returned.data();
  bool all_returned = true;
  for (uint32_t l = 0; l < w.lanes; ++l) all_returned &= returned[l] != 0;
  if (all_returned) w.stop = true;
}

void Switch(Wave& w, const Decoded& d) {
  Frame& f = w.Push(Frame::Kind::kSwitch);
  const uint32_t* v = w.Slot(d.src[0][0]);
  f.values.assign(v, v + w.lanes);
  f.switch_values = d.case_value;  // index of this switch's case list
  std::fill_n(w.active.data(), w.lanes, 0u);  // lanes enter at cases
}

// Lanes enter at their case and fall through the following labels;
// Restore keeps broken, continued and returned lanes out.
void Case(Wave& w, const Decoded& d) {
  Frame& f = w.Top();
  for (uint32_t l = 0; l < w.lanes; ++l) {
    const uint32_t match = f.values[l] == d.case_value ? ~0u : 0u;
    f.taken[l] |= f.parent[l] & match;
  }
  w.Restore(f.taken);
}

void Default(Wave& w, const Decoded&) {
  Frame& f = w.Top();
  const std::vector<uint32_t>& labels = w.cc->switch_values[f.switch_values];
  for (uint32_t l = 0; l < w.lanes; ++l) {
    const bool listed =
        std::find(labels.begin(), labels.end(), f.values[l]) != labels.end();
    f.taken[l] |= f.parent[l] & (listed ? 0u : ~0u);
  }
  w.Restore(f.taken);
}

void EndSwitch(Wave& w, const Decoded&) { EndFrame(w); }

// In lockstep every live lane reaches the barrier together: nothing to do.
void Sync(Wave&, const Decoded&) {}

}  // namespace

Handler ControlHandler(Op op) {
  switch (op) {
    case Op::kIfZ: return &If<false>;
    case Op::kIfNz: return &If<true>;
    case Op::kElse: return &Else;
    case Op::kEndIf: return &EndIfSafe;
    case Op::kLoop: return &Loop;
    case Op::kEndLoop: return &EndLoop;
    case Op::kBreak: return &Break<0>;
    case Op::kBreakcZ: return &Break<1>;
    case Op::kBreakcNz: return &Break<2>;
    case Op::kContinue: return &Continue<0>;
    case Op::kContinuecZ: return &Continue<1>;
    case Op::kContinuecNz: return &Continue<2>;
    case Op::kSwitch: return &Switch;
    case Op::kCase: return &Case;
    case Op::kDefault: return &Default;
    case Op::kEndSwitch: return &EndSwitch;
    case Op::kRet: return &Ret<0>;
    case Op::kRetcZ: return &Ret<1>;
    case Op::kRetcNz: return &Ret<2>;
    default: return &Sync;
  }
}

Handler SyncHandler() { return &Sync; }

}  // namespace atomfuzz::targets::fast
