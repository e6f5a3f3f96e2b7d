// Loads, stores, atomics and counters. UAV words are shared by all workers,
// so every access goes through std::atomic_ref (relaxed for plain loads and
// stores: no C++ data race, and real contention between groups); TGSM
// belongs to one wave. Handlers are instantiated per memory kind, address
// variant and operation, chosen when the case is compiled.
#include <atomic>
#include <bit>
#include <optional>

#include "absl/base/attributes.h"
#include "targets/fast/addressing.h"
#include "targets/fast/handlers.h"
#include "targets/fast/rmw_ops.h"
#include "targets/fast/wave.h"

namespace atomfuzz::targets::fast {
namespace {

using isa::Op;

constexpr auto kRelaxed = std::memory_order_relaxed;

const Memory& MemOf(const Wave& w, const Decoded& d) {
  return w.cc->memories[static_cast<size_t>(d.memory)];
}
uint32_t* UavWords(Wave& w, const Memory& m) {
  return w.memory->uavs[m.uav].data();
}

// The address components of lane l (spec 1.2): src[k] per component.
inline void Address(Wave& w, const Decoded& d, int source, uint32_t l,
                    uint32_t* a) {
  for (int c = 0; c < 3; ++c)
    a[c] =
        w.Slot(d.src[static_cast<size_t>(source)][static_cast<size_t>(c)])[l];
}

void WriteDst0(Wave& w, const Decoded& d, uint32_t l, uint32_t v) {
  for (int c = 0; c < 4; ++c) {
    if (d.mask & (1u << c)) w.Slot(d.dst[static_cast<size_t>(c)])[l] = v;
  }
}

void Record(Wave& w, const Decoded& d, uint32_t l, const Memory& m, bool hit,
            uint32_t word, uint32_t a, uint32_t b,
            std::optional<uint32_t> ret) {
  if (w.trace == nullptr) return;  // occurrences are only kept for the trace
  uint32_t& occurrence = w.occurrences[size_t{d.atomic} * w.lanes + l];
  {
    isa::AtomicEvent e;
    e.group = w.lane_gid[l];
    e.thread = w.lane_tid[l];
    e.instruction = d.instruction;
    e.occurrence = occurrence;
    e.file = m.tgsm ? isa::RegFile::kTgsm : isa::RegFile::kUav;
    e.slot = m.slot;
    e.word = word;
    e.address = hit ? isa::AddressClass::kInBounds : isa::AddressClass::kSkip;
    e.src0 = a;
    e.src1 = b;
    e.returned = ret;
    w.trace->push_back(e);
  }
  ++occurrence;
}

// After a handler that records: a full trace ends the wave (Execute tests
// one flag per instruction, not the trace).
void StopIfTraceFull(Wave& w) {
  if (w.TraceFull()) w.stop = true;
}

enum class Variant { kNormal, kReturnNew, kTwoPhase };

// An atomic's per-lane operand slots, for its lane loop to keep in locals
// (see AtomicNoTrace): the address components, src[1] (va) and for cmp
// forms src[2] (vb, else va again), and the destinations its mask writes.
struct AtomicLanes {
  uint32_t lanes;
  const uint32_t* active;
  const uint32_t *a0, *a1, *a2, *va, *vb;
  uint32_t* dst[4];
  int dsts = 0;
};

ABSL_ATTRIBUTE_ALWAYS_INLINE AtomicLanes LanesOf(Wave& w, const Decoded& d) {
  const bool cmp = d.rmw == isa::Rmw::kCmpExch;
  AtomicLanes o{w.lanes,
                w.active.data(),
                w.Slot(d.src[0][0]),
                w.Slot(d.src[0][1]),
                w.Slot(d.src[0][2]),
                w.Slot(d.src[1][0]),
                nullptr,
                {},
                0};
  o.vb = cmp ? w.Slot(d.src[2][0]) : o.va;
  for (int c = 0; c < 4; ++c) {
    if (d.mask & (1u << c))
      o.dst[o.dsts++] = w.Slot(d.dst[static_cast<size_t>(c)]);
  }
  return o;
}

// A UAV atomic with the trace off, the common case when fuzzing without a
// judge that needs returns: loop invariants in locals (an atomic RMW makes
// the compiler reload anything reachable through w, d or m), no occurrence
// counting, and when nothing reads the old value a plain lock or/add
// instead of a compare-exchange loop.
template <class A, class R>
void AtomicNoTrace(Wave& w, const Decoded& d) {
  const Memory m = MemOf(w, d);
  uint32_t* const words = UavWords(w, m);
  const auto [lanes, active, a0, a1, a2, va, vb, dst, dsts] = LanesOf(w, d);
  if (dsts == 0 && R::kFetch != rmw::Fetch::kNone) {
    for (uint32_t l = 0; l < lanes; ++l) {
      if (!active[l]) continue;
      const uint32_t addr[3] = {a0[l], a1[l], a2[l]};
      const Where at = A::At(m, addr);
      if (!at.hit) continue;
      std::atomic_ref<uint32_t> word(words[at.word]);
      if constexpr (R::kFetch == rmw::Fetch::kAdd)
        word.fetch_add(va[l], kRelaxed);
      if constexpr (R::kFetch == rmw::Fetch::kAnd)
        word.fetch_and(va[l], kRelaxed);
      if constexpr (R::kFetch == rmw::Fetch::kOr)
        word.fetch_or(va[l], kRelaxed);
      if constexpr (R::kFetch == rmw::Fetch::kXor)
        word.fetch_xor(va[l], kRelaxed);
      if constexpr (R::kFetch == rmw::Fetch::kExchange)
        word.exchange(va[l], kRelaxed);
    }
    return;
  }
  for (uint32_t l = 0; l < lanes; ++l) {
    if (!active[l]) continue;
    const uint32_t addr[3] = {a0[l], a1[l], a2[l]};
    const Where at = A::At(m, addr);
    uint32_t old = 0;
    if (at.hit)
      old = rmw::Apply<R>(std::atomic_ref<uint32_t>(words[at.word]), va[l],
                          vb[l]);
    const uint32_t ret = R::Ret(old, va[l]);
    for (int k = 0; k < dsts; ++k) dst[k][l] = ret;
  }
}

// Atomic on a memory whose address type is A, operation R. src[0] is the
// address; for cmp forms src[1] is the comparand and src[2] the value,
// otherwise src[1] the value (compile order of the sources). As in
// AtomicNoTrace, everything the lane loop reads through w, d and m is in
// locals: the trace's and TGSM's stores may alias them, and each lane
// reloaded them all.
template <class A, class R, bool kTgsm, Variant kV>
void Atomic(Wave& w, const Decoded& d) {
  if constexpr (!kTgsm && kV == Variant::kNormal) {
    if (w.trace == nullptr) return AtomicNoTrace<A, R>(w, d);
  }
  const Memory m = MemOf(w, d);
  uint32_t* const words = kTgsm ? w.tgsm.data() + m.tgsm_base : UavWords(w, m);
  const bool cmp = d.rmw == isa::Rmw::kCmpExch;
  const auto [lanes, active, a0, a1, a2, va, vb, dst, dsts] = LanesOf(w, d);
  uint32_t* const before = w.scratch.data();
  if constexpr (kV == Variant::kTwoPhase) {
    // Injected: every lane reads, then every lane writes what it computed.
    for (uint32_t l = 0; l < lanes; ++l) {
      if (!active[l]) continue;
      const uint32_t addr[3] = {a0[l], a1[l], a2[l]};
      const Where at = A::At(m, addr);
      before[l] =
          at.hit ? std::atomic_ref<uint32_t>(words[at.word]).load(kRelaxed) : 0;
    }
  }
  // The trace (occurrences are only kept for it) and each event's fields
  // common to all lanes.
  std::vector<isa::AtomicEvent>* const trace = w.trace;
  uint32_t* const occurrences =
      trace != nullptr ? w.occurrences.data() + size_t{d.atomic} * lanes
                       : nullptr;
  const std::array<uint32_t, 3>* const gid = w.lane_gid.data();
  const std::array<uint32_t, 3>* const tid = w.lane_tid.data();
  const uint32_t instruction = d.instruction;
  const bool returns = d.returns;
  const isa::RegFile file = m.tgsm ? isa::RegFile::kTgsm : isa::RegFile::kUav;
  for (uint32_t l = 0; l < lanes; ++l) {
    if (!active[l]) continue;
    const uint32_t addr[3] = {a0[l], a1[l], a2[l]};
    const uint32_t a = va[l];
    const uint32_t b = cmp ? vb[l] : 0;
    const Where at = A::At(m, addr);
    uint32_t old = 0;
    if (at.hit) {
      if constexpr (kV == Variant::kTwoPhase) {
        old = before[l];
        std::atomic_ref<uint32_t>(words[at.word])
            .store(R::New(old, a, b), kRelaxed);
      } else if constexpr (kTgsm) {
        old = words[at.word];
        words[at.word] = R::New(old, a, b);
      } else {
        old = rmw::Apply<R>(std::atomic_ref<uint32_t>(words[at.word]), a, b);
      }
    }
    uint32_t ret = R::Ret(old, a);
    if constexpr (kV == Variant::kReturnNew) ret = R::New(old, a, b);
    for (int k = 0; k < dsts; ++k) dst[k][l] = ret;
    if (trace == nullptr) continue;
    // The trace holds what dst0 got; for atomic_* the old value this
    // executor saw (isa::AtomicEvent::returned).
    isa::AtomicEvent& e = trace->emplace_back();
    e.group = gid[l];
    e.thread = tid[l];
    e.instruction = instruction;
    e.occurrence = occurrences[l]++;
    e.file = file;
    e.slot = m.slot;
    e.word = at.word;
    e.address =
        at.hit ? isa::AddressClass::kInBounds : isa::AddressClass::kSkip;
    e.src0 = a;
    e.src1 = b;
    e.returned = returns ? ret : old;
  }
  StopIfTraceFull(w);
}

template <bool kConsume, bool kPreDecrement>
void Counter(Wave& w, const Decoded& d) {
  const Memory& m = MemOf(w, d);
  std::atomic_ref<uint32_t> counter(w.memory->counters[m.uav]);
  for (uint32_t l = 0; l < w.lanes; ++l) {
    if (!w.active[l]) continue;
    uint32_t ret;
    if constexpr (kConsume) {
      const uint32_t old = counter.fetch_sub(1, kRelaxed);
      ret = kPreDecrement ? old : old - 1;  // spec 1.6: the value after
    } else {
      ret = counter.fetch_add(1, kRelaxed);  // the value before
    }
    WriteDst0(w, d, l, ret);
    Record(w, d, l, m, true, 0, 0, 0, ret);
  }
  StopIfTraceFull(w);
}

// ld_raw / ld_structured: a 4-word window, then the resource swizzle
// (src[3]) and the destination mask. Out of bounds reads 0 (spec 1.7).
template <bool kStructured, bool kTgsm>
void LoadWindow(Wave& w, const Decoded& d) {
  const Memory& m = MemOf(w, d);
  const uint32_t* words = kTgsm ? w.tgsm.data() + m.tgsm_base : UavWords(w, m);
  for (uint32_t l = 0; l < w.lanes; ++l) {
    if (!w.active[l]) continue;
    const uint32_t index = kStructured ? w.Slot(d.src[0][0])[l] : 0;
    const uint32_t offset = w.Slot(d.src[kStructured ? 1 : 0][0])[l];
    uint32_t window[4] = {0, 0, 0, 0};
    if (offset % 4 == 0 && (!kStructured || index < m.elements)) {
      const uint64_t base =
          (kStructured ? uint64_t{index} * m.stride : 0) + offset;
      for (int c = 0; c < 4; ++c) {
        const uint64_t byte = base + 4ull * static_cast<uint64_t>(c);
        const bool inside =
            byte + 4 <= m.words * 4 &&
            (!kStructured ||
             uint64_t{offset} + 4ull * static_cast<uint64_t>(c) + 4 <=
                 m.stride);
        if (inside) {
          window[c] = kTgsm ? words[byte / 4]
                            : std::atomic_ref<const uint32_t>(words[byte / 4])
                                  .load(kRelaxed);
        }
      }
    }
    for (int c = 0; c < 4; ++c) {
      if (d.mask & (1u << c)) {
        w.Slot(d.dst[static_cast<size_t>(c)])[l] =
            window[d.src[3][static_cast<size_t>(c)] & 3];
      }
    }
  }
}

void LoadTyped(Wave& w, const Decoded& d) {
  const Memory& m = MemOf(w, d);
  const uint32_t* words = UavWords(w, m);
  const uint32_t one = m.float_format ? 0x3f800000u : 1u;
  for (uint32_t l = 0; l < w.lanes; ++l) {
    if (!w.active[l]) continue;
    uint32_t addr[3];
    Address(w, d, 0, l, addr);
    const Where at = TypedAddress::At(m, addr);
    const uint32_t texel[4] = {
        at.hit ? std::atomic_ref<const uint32_t>(words[at.word]).load(kRelaxed)
               : 0,
        0, 0, one};
    for (int c = 0; c < 4; ++c) {
      if (d.mask & (1u << c)) {
        w.Slot(d.dst[static_cast<size_t>(c)])[l] =
            texel[d.src[3][static_cast<size_t>(c)] & 3];
      }
    }
  }
}

// store_raw / store_structured: consecutive words from the mask; a
// misaligned or past-the-stride store poisons (nothing written here), out of
// bounds words are skipped (spec 1.7).
template <bool kStructured, bool kTgsm>
void StoreWindow(Wave& w, const Decoded& d) {
  // Everything read through w, d and m in locals: each store through a
  // uint32_t* may alias them, and the lane loop reloaded them all.
  const Memory m = MemOf(w, d);
  uint32_t* const words = kTgsm ? w.tgsm.data() + m.tgsm_base : UavWords(w, m);
  const uint32_t mask = d.mask;
  const int count = std::bit_width(mask);
  const size_t value = kStructured ? 2 : 1;
  const uint32_t lanes = w.lanes;
  const uint32_t* const active = w.active.data();
  const uint32_t* const index_of = w.Slot(d.src[0][0]);
  const uint32_t* const offset_of = w.Slot(d.src[kStructured ? 1 : 0][0]);
  const uint32_t* values[4];
  for (size_t c = 0; c < 4; ++c) values[c] = w.Slot(d.src[value][c]);
  for (uint32_t l = 0; l < lanes; ++l) {
    if (!active[l]) continue;
    const uint32_t index = kStructured ? index_of[l] : 0;
    const uint32_t offset = offset_of[l];
    if (offset % 4 != 0) continue;
    if (kStructured &&
        (uint64_t{offset} + 4ull * static_cast<uint64_t>(count) > m.stride ||
         index >= m.elements)) {
      continue;
    }
    const uint64_t base =
        (kStructured ? uint64_t{index} * m.stride : 0) + offset;
    for (int c = 0; c < count; ++c) {
      const uint64_t byte = base + 4ull * static_cast<uint64_t>(c);
      if (!(mask & (1u << c)) || byte + 4 > m.words * 4) continue;
      const uint32_t v = values[c][l];
      if (kTgsm) {
        words[byte / 4] = v;
      } else {
        std::atomic_ref<uint32_t>(words[byte / 4]).store(v, kRelaxed);
      }
    }
  }
}

void StoreTyped(Wave& w, const Decoded& d) {
  const Memory& m = MemOf(w, d);
  uint32_t* words = UavWords(w, m);
  for (uint32_t l = 0; l < w.lanes; ++l) {
    if (!w.active[l]) continue;
    uint32_t addr[3];
    Address(w, d, 0, l, addr);
    const Where at = TypedAddress::At(m, addr);
    if (at.hit)
      std::atomic_ref<uint32_t>(words[at.word])
          .store(w.Slot(d.src[1][0])[l], kRelaxed);
  }
}

// x#[rN.c + k] <-> scratch slots.
void Gather(Wave& w, const Decoded& d) {
  for (uint32_t l = 0; l < w.lanes; ++l) {
    const uint64_t element =
        uint64_t{d.x_offset} + (d.x_rel != UINT32_MAX ? w.Slot(d.x_rel)[l] : 0);
    for (int c = 0; c < 4; ++c) {
      w.Slot(d.dst[static_cast<size_t>(c)])[l] =
          element < d.x_elements
              ? w.Slot(d.x_base + static_cast<uint32_t>(element * 4) +
                       static_cast<uint32_t>(c))[l]
              : 0;
    }
  }
}

void Scatter(Wave& w, const Decoded& d) {
  for (uint32_t l = 0; l < w.lanes; ++l) {
    if (!w.active[l]) continue;
    const uint64_t element =
        uint64_t{d.x_offset} + (d.x_rel != UINT32_MAX ? w.Slot(d.x_rel)[l] : 0);
    if (element >= d.x_elements) continue;  // out of range: dropped
    for (int c = 0; c < 4; ++c) {
      if (d.mask & (1u << c)) {
        w.Slot(d.x_base + static_cast<uint32_t>(element * 4) +
               static_cast<uint32_t>(c))[l] =
            w.Slot(d.dst[static_cast<size_t>(c)])[l];
      }
    }
  }
}

// Handler factories: three separate switches so only the combinations an
// injection can need are instantiated.
template <class A, bool kTgsm, Variant kV>
Handler ForBaseRmw(isa::Rmw r) {
  switch (r) {
    case isa::Rmw::kIAdd: return &Atomic<A, rmw::IAdd, kTgsm, kV>;
    case isa::Rmw::kAnd: return &Atomic<A, rmw::And, kTgsm, kV>;
    case isa::Rmw::kOr: return &Atomic<A, rmw::Or, kTgsm, kV>;
    case isa::Rmw::kXor: return &Atomic<A, rmw::Xor, kTgsm, kV>;
    case isa::Rmw::kExch: return &Atomic<A, rmw::Exch, kTgsm, kV>;
    case isa::Rmw::kCmpExch: return &Atomic<A, rmw::CmpExch, kTgsm, kV>;
    case isa::Rmw::kIMax: return &Atomic<A, rmw::IMax, kTgsm, kV>;
    case isa::Rmw::kIMin: return &Atomic<A, rmw::IMin, kTgsm, kV>;
    case isa::Rmw::kUMax: return &Atomic<A, rmw::UMax, kTgsm, kV>;
    case isa::Rmw::kUMin: return &Atomic<A, rmw::UMin, kTgsm, kV>;
    default: return nullptr;
  }
}

// An injected operation, on any base address type; nullptr if the
// injection does not change this operation.
template <class A, bool kTgsm>
Handler ForInjectedRmw(isa::Rmw r, Inject inject) {
  using isa::Rmw;
  switch (inject) {
    case Inject::kIMaxUnsigned:
      if (r == Rmw::kIMax)
        return &Atomic<A, rmw::IMaxUnsigned, kTgsm, Variant::kNormal>;
      if (r == Rmw::kIMin)
        return &Atomic<A, rmw::IMinUnsigned, kTgsm, Variant::kNormal>;
      break;
    case Inject::kUMaxSigned:
      if (r == Rmw::kUMax)
        return &Atomic<A, rmw::UMaxSigned, kTgsm, Variant::kNormal>;
      if (r == Rmw::kUMin)
        return &Atomic<A, rmw::UMinSigned, kTgsm, Variant::kNormal>;
      break;
    case Inject::kCmpExchSwapped:
      if (r == Rmw::kCmpExch)
        return &Atomic<A, rmw::CmpExchSwapped, kTgsm, Variant::kNormal>;
      break;
    case Inject::kCmpExchSuccessFlag:
      if (r == Rmw::kCmpExch)
        return &Atomic<A, rmw::CmpExchFlag, kTgsm, Variant::kNormal>;
      break;
    case Inject::kXorAsOr:
      if (r == Rmw::kXor) return &Atomic<A, rmw::Or, kTgsm, Variant::kNormal>;
      break;
    case Inject::kIAddSaturate:
      if (r == Rmw::kIAdd)
        return &Atomic<A, rmw::IAddSaturate, kTgsm, Variant::kNormal>;
      break;
    case Inject::kReturnNew:
      return ForBaseRmw<A, kTgsm, Variant::kReturnNew>(r);
    case Inject::kRmwNotAtomic:
      return ForBaseRmw<A, kTgsm, Variant::kTwoPhase>(r);
    default: break;
  }
  return nullptr;
}

template <class A, bool kTgsm>
Handler ForAddress(isa::Rmw r, Inject inject) {
  if (Handler h = ForInjectedRmw<A, kTgsm>(r, inject)) return h;
  return ForBaseRmw<A, kTgsm, Variant::kNormal>(r);
}

Handler AtomicHandler(const Memory& m, isa::Rmw r, Inject inject) {
  const bool inst = m.kind == Memory::Kind::kStructured;
  if (m.tgsm) {
    return inst ? ForAddress<StructuredAddress, true>(r, inject)
                : ForAddress<RawAddress, true>(r, inject);
  }
  // Injected address variants (u# only: E-17 on g# poisons anyway).
  switch (inject) {
    case Inject::kStructuredOffsetIgnored:
      if (inst)
        return ForBaseRmw<StructuredNoOffset, false, Variant::kNormal>(r);
      break;
    case Inject::kStructuredIndexWrap32:
      if (inst) return ForBaseRmw<StructuredWrap32, false, Variant::kNormal>(r);
      break;
    case Inject::kTex2DYIgnored:
      if (m.kind == Memory::Kind::kTyped)
        return ForBaseRmw<TypedNoY, false, Variant::kNormal>(r);
      break;
    case Inject::kOobWrap:
      switch (m.kind) {
        case Memory::Kind::kRaw:
          return ForBaseRmw<WrapOutOfBounds<RawAddress>, false,
                            Variant::kNormal>(r);
        case Memory::Kind::kStructured:
          return ForBaseRmw<WrapOutOfBounds<StructuredAddress>, false,
                            Variant::kNormal>(r);
        case Memory::Kind::kTyped:
          return ForBaseRmw<WrapOutOfBounds<TypedAddress>, false,
                            Variant::kNormal>(r);
      }
      break;
    default: break;
  }
  switch (m.kind) {
    case Memory::Kind::kRaw: return ForAddress<RawAddress, false>(r, inject);
    case Memory::Kind::kStructured:
      return ForAddress<StructuredAddress, false>(r, inject);
    case Memory::Kind::kTyped:
      return ForAddress<TypedAddress, false>(r, inject);
  }
  return nullptr;
}

}  // namespace

Handler MemoryHandler(const isa::Instruction& inst, const Memory& m,
                      Inject inject) {
  const bool structured = m.kind == Memory::Kind::kStructured;
  switch (inst.info().family) {
    case isa::Family::kLoad:
      if (inst.op == Op::kLdUavTyped)
        return m.kind == Memory::Kind::kTyped && !m.tgsm ? &LoadTyped : nullptr;
      if (m.kind == Memory::Kind::kTyped) return nullptr;
      if (m.tgsm)
        return structured ? &LoadWindow<true, true> : &LoadWindow<false, true>;
      return structured ? &LoadWindow<true, false> : &LoadWindow<false, false>;
    case isa::Family::kStore:
      if (inst.op == Op::kStoreUavTyped)
        return m.kind == Memory::Kind::kTyped && !m.tgsm ? &StoreTyped
                                                         : nullptr;
      if (m.kind == Memory::Kind::kTyped) return nullptr;
      if (m.tgsm)
        return structured ? &StoreWindow<true, true>
                          : &StoreWindow<false, true>;
      return structured ? &StoreWindow<true, false>
                        : &StoreWindow<false, false>;
    case isa::Family::kCounter:
      if (m.tgsm || !structured) return nullptr;
      if (inst.op == Op::kImmAtomicAlloc) return &Counter<false, false>;
      return inject == Inject::kConsumePreDecrement ? &Counter<true, true>
                                                    : &Counter<true, false>;
    case isa::Family::kAtomic:
    case isa::Family::kImmAtomic:
      return AtomicHandler(m, inst.info().rmw, inject);
    default: return nullptr;
  }
}

Handler GatherHandler() { return &Gather; }
Handler ScatterHandler() { return &Scatter; }

}  // namespace atomfuzz::targets::fast
