// The fast executor's pixel stage (docs/pixel-stage.md): discard, the
// derivatives across a quad's lanes, and the mask that keeps helpers and
// discarded lanes off memory. Three injected bugs live here:
// helper-atomics-write, discard-ignored-by-atomics and
// discard-kills-derivatives (docs/injected-bugs.md).
#include <bit>
#include <cstring>

#include "targets/fast/handlers.h"
#include "targets/fast/wave.h"

namespace atomfuzz::targets::fast {
namespace {

// discard_z / discard_nz: a lane whose condition holds stops counting for
// memory but goes on running for its neighbours' derivatives.
template <bool kKills>
void Discard(Wave& w, const Decoded& d) {
  const uint32_t* const cond = w.Slot(d.src[0][0]);
  bool any = false;
  for (uint32_t l = 0; l < w.lanes; ++l) {
    if (!w.active[l] || (cond[l] != 0) != d.nonzero) continue;
    w.discarded[l] = ~0u;
    any = true;
  }
  if (!kKills || !any) return;
  // Injected: the lane ends there, as OpKill ends an invocation, its
  // registers gone (zero), so a neighbour's derivative reads garbage.
  const uint32_t slots = w.cc->constant_base;
  bool all_returned = true;
  for (uint32_t l = 0; l < w.lanes; ++l) {
    if (w.discarded[l] && !w.returned[l]) {
      w.returned[l] = ~0u;
      w.active[l] = 0;
      for (uint32_t s = 0; s < slots; ++s) w.Slot(s)[l] = 0;
    }
    all_returned &= w.returned[l] != 0;
  }
  if (all_returned) w.stop = true;
}

float AsFloat(uint32_t bits) { return std::bit_cast<float>(bits); }

// The difference along x (kX) or y of the lane's quad, from its own row or
// column (fine) or from the quad's first (coarse: one value for the quad).
template <bool kX, bool kFine>
void Deriv(Wave& w, const Decoded& d) {
  for (int c = 0; c < 4; ++c) {
    if (!(d.mask >> c & 1)) continue;
    const uint32_t* const src = w.Slot(d.src[0][static_cast<size_t>(c)]);
    // Staged: the destination may be the source, and every lane of a quad
    // reads the others' values from before the write.
    uint32_t* const out = w.scratch.data();
    for (uint32_t l = 0; l < w.lanes; ++l) {
      const uint32_t quad = l & ~3u;
      const uint32_t first = quad + (kFine ? (kX ? (l & 2u) : (l & 1u)) : 0u);
      const uint32_t second = first + (kX ? 1u : 2u);
      const float diff = AsFloat(src[second]) - AsFloat(src[first]);
      out[l] = std::bit_cast<uint32_t>(diff);
    }
    uint32_t* const dst = w.Slot(d.dst[static_cast<size_t>(c)]);
    for (uint32_t l = 0; l < w.lanes; ++l) {
      if (w.active[l]) dst[l] = out[l];
    }
  }
}

// Which lanes a store or atomic may touch: active, not a helper, not
// discarded (spec 1.3). The injected bugs widen it for atomics.
enum class Gate { kLive, kHelpersToo, kDiscardedToo };

template <Gate kGate>
void Gated(Wave& w, const Decoded& d) {
  Ensure(w.gated, w.lanes);
  for (uint32_t l = 0; l < w.lanes; ++l) {
    const uint32_t may = kGate == Gate::kLive ? w.covered[l] & ~w.discarded[l]
                         : kGate == Gate::kHelpersToo ? ~w.discarded[l]
                                                      : w.covered[l];
    w.gated[l] = w.active[l] & may;
  }
  // The inner handler reads w.active and never writes it.
  w.active.swap(w.gated);
  d.inner(w, d);
  w.active.swap(w.gated);
}

}  // namespace

Handler DiscardHandler(Inject inject) {
  return inject == Inject::kDiscardKillsDerivatives ? &Discard<true>
                                                    : &Discard<false>;
}

Handler DerivHandler(isa::Op op) {
  switch (op) {
    case isa::Op::kDerivRtxFine: return &Deriv<true, true>;
    case isa::Op::kDerivRtyFine: return &Deriv<false, true>;
    case isa::Op::kDerivRty:
    case isa::Op::kDerivRtyCoarse: return &Deriv<false, false>;
    default: return &Deriv<true, false>;  // deriv_rtx, _coarse
  }
}

Handler GatedHandler(isa::Family family, Inject inject) {
  const bool atomic = family != isa::Family::kStore;
  if (atomic && inject == Inject::kHelperAtomicsWrite) {
    return &Gated<Gate::kHelpersToo>;
  }
  if (atomic && inject == Inject::kDiscardIgnoredByAtomics) {
    return &Gated<Gate::kDiscardedToo>;
  }
  return &Gated<Gate::kLive>;
}

}  // namespace atomfuzz::targets::fast
