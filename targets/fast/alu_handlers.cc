// ALU handlers: one lane loop per opcode over whole slots, written so the
// compiler vectorizes it (no calls, no branches on lanes: masked selects).
// The arithmetic is this executor's own, independent of the oracle's.
#include <bit>
#include <cstring>

#include "targets/fast/handlers.h"
#include "targets/fast/wave.h"

namespace atomfuzz::targets::fast {
namespace {

using isa::Op;

inline uint32_t Select(uint32_t mask, uint32_t v, uint32_t old) {
  return (v & mask) | (old & ~mask);
}
inline int32_t S(uint32_t v) { return static_cast<int32_t>(v); }
inline uint32_t B(bool b) { return b ? ~0u : 0u; }

struct Mov {
  static uint32_t F(uint32_t a, uint32_t, uint32_t, uint32_t) { return a; }
};
struct Movc {
  static uint32_t F(uint32_t c, uint32_t a, uint32_t b, uint32_t) {
    return c ? a : b;
  }
};
struct IAdd {
  static uint32_t F(uint32_t a, uint32_t b, uint32_t, uint32_t) {
    return a + b;
  }
};
struct INeg {
  static uint32_t F(uint32_t a, uint32_t, uint32_t, uint32_t) { return 0u - a; }
};
struct Mad {
  static uint32_t F(uint32_t a, uint32_t b, uint32_t c, uint32_t) {
    return a * b + c;
  }
};
struct IShl {
  static uint32_t F(uint32_t a, uint32_t b, uint32_t, uint32_t) {
    return a << (b & 31);
  }
};
struct IShr {
  static uint32_t F(uint32_t a, uint32_t b, uint32_t, uint32_t) {
    return static_cast<uint32_t>(S(a) >> (b & 31));
  }
};
struct UShr {
  static uint32_t F(uint32_t a, uint32_t b, uint32_t, uint32_t) {
    return a >> (b & 31);
  }
};
struct And {
  static uint32_t F(uint32_t a, uint32_t b, uint32_t, uint32_t) {
    return a & b;
  }
};
struct Or {
  static uint32_t F(uint32_t a, uint32_t b, uint32_t, uint32_t) {
    return a | b;
  }
};
struct Xor {
  static uint32_t F(uint32_t a, uint32_t b, uint32_t, uint32_t) {
    return a ^ b;
  }
};
struct Not {
  static uint32_t F(uint32_t a, uint32_t, uint32_t, uint32_t) { return ~a; }
};
struct IEq {
  static uint32_t F(uint32_t a, uint32_t b, uint32_t, uint32_t) {
    return B(a == b);
  }
};
struct INe {
  static uint32_t F(uint32_t a, uint32_t b, uint32_t, uint32_t) {
    return B(a != b);
  }
};
struct ILt {
  static uint32_t F(uint32_t a, uint32_t b, uint32_t, uint32_t) {
    return B(S(a) < S(b));
  }
};
struct IGe {
  static uint32_t F(uint32_t a, uint32_t b, uint32_t, uint32_t) {
    return B(S(a) >= S(b));
  }
};
struct ULt {
  static uint32_t F(uint32_t a, uint32_t b, uint32_t, uint32_t) {
    return B(a < b);
  }
};
struct UGe {
  static uint32_t F(uint32_t a, uint32_t b, uint32_t, uint32_t) {
    return B(a >= b);
  }
};
struct IMax {
  static uint32_t F(uint32_t a, uint32_t b, uint32_t, uint32_t) {
    return S(a) > S(b) ? a : b;
  }
};
struct IMin {
  static uint32_t F(uint32_t a, uint32_t b, uint32_t, uint32_t) {
    return S(a) < S(b) ? a : b;
  }
};
struct UMax {
  static uint32_t F(uint32_t a, uint32_t b, uint32_t, uint32_t) {
    return a > b ? a : b;
  }
};
struct UMin {
  static uint32_t F(uint32_t a, uint32_t b, uint32_t, uint32_t) {
    return a < b ? a : b;
  }
};
struct CountBits {
  static uint32_t F(uint32_t a, uint32_t, uint32_t, uint32_t) {
    return static_cast<uint32_t>(std::popcount(a));
  }
};
// Float to integer, toward zero, NaN to 0, clamped at the ends (FS 22.10).
struct FtoU {
  static uint32_t F(uint32_t a, uint32_t, uint32_t, uint32_t) {
    float f;
    std::memcpy(&f, &a, sizeof f);
    if (f != f || f <= 0.0f) return 0;
    return f < 4294967296.0f ? static_cast<uint32_t>(f) : 0xFFFFFFFFu;
  }
};
struct FtoI {
  static uint32_t F(uint32_t a, uint32_t, uint32_t, uint32_t) {
    float f;
    std::memcpy(&f, &a, sizeof f);
    if (f != f) return 0;
    if (f >= 2147483648.0f) return 0x7FFFFFFFu;
    if (f <= -2147483648.0f) return 0x80000000u;
    return static_cast<uint32_t>(static_cast<int32_t>(f));
  }
};
struct Ubfe {
  // width and offset use their low 5 bits (FS ubfe).
  static uint32_t F(uint32_t width, uint32_t offset, uint32_t v, uint32_t) {
    const uint32_t w = width & 31, o = offset & 31;
    if (w == 0) return 0;
    if (w + o < 32) return (v << (32 - w - o)) >> (32 - w);
    return v >> o;
  }
};
struct Bfi {
  static uint32_t F(uint32_t width, uint32_t offset, uint32_t insert,
                    uint32_t base) {
    const uint32_t w = width & 31, o = offset & 31;
    const uint32_t bits = static_cast<uint32_t>((uint64_t{1} << w) - 1) << o;
    return ((insert << o) & bits) | (base & ~bits);
  }
};

// One component: d = f(a, b, c, e) where active, else unchanged.
// Four lanes or more: four at a time, each block read whole before it is
// written. A slot is either the destination's own or apart from it, so
// that is exact even in place, and the blocks vectorize without the
// run-time overlap checks a plain loop needs (which cost more than a
// small group's lanes). Apart, so that the few-lane path needs few
// registers.
template <class F>
[[gnu::always_inline]] inline void BlockLanes(uint32_t* d, const uint32_t* a,
                                              const uint32_t* b,
                                              const uint32_t* c,
                                              const uint32_t* e,
                                              const uint32_t* m, uint32_t n) {
  uint32_t l = 0;
#pragma clang loop vectorize(disable) unroll(disable)
  for (; l + 4 <= n; l += 4) {
    uint32_t r[4];
    for (uint32_t i = 0; i < 4; ++i) {
      r[i] = Select(m[l + i], F::F(a[l + i], b[l + i], c[l + i], e[l + i]),
                    d[l + i]);
    }
    std::memcpy(d + l, r, sizeof r);
  }
#pragma clang loop vectorize(disable) unroll(disable)
  for (; l < n; ++l) d[l] = Select(m[l], F::F(a[l], b[l], c[l], e[l]), d[l]);
}

template <class F>
[[gnu::noinline]] void WideLanes(uint32_t* d, const uint32_t* a,
                                 const uint32_t* b, const uint32_t* c,
                                 const uint32_t* e, const uint32_t* m,
                                 uint32_t n) {
  BlockLanes<F>(d, a, b, c, e, m, n);
}

template <class F>
inline void Lanes(uint32_t* d, const uint32_t* a, const uint32_t* b,
                  const uint32_t* c, const uint32_t* e, const uint32_t* m,
                  uint32_t n) {
  if (n >= 4) return WideLanes<F>(d, a, b, c, e, m, n);
#pragma clang loop vectorize(disable) unroll(disable)
  for (uint32_t l = 0; l < n; ++l)
    d[l] = Select(m[l], F::F(a[l], b[l], c[l], e[l]), d[l]);
}

template <class F>
void Alu(Wave& w, const Decoded& d) {
  const uint32_t n = w.lanes;
  for (int c = 0; c < 4; ++c) {
    if (!(d.mask & (1u << c))) continue;
    const size_t k = static_cast<size_t>(c);
    Lanes<F>(w.Slot(d.dst[k]), w.Slot(d.src[0][k]), w.Slot(d.src[1][k]),
             w.Slot(d.src[2][k]), w.Slot(d.src[3][k]), w.active.data(), n);
  }
}

// The usual ALU instruction writes one component (r1.x): no loop over the
// mask, whose tests and pointer set-up cost as much as a few lanes. Its
// slots sit in component 0 (OneComponent moved them there), so no bit scan
// finds them either.
// Four lanes or more, apart: AluOne reaches it by a tail call, and sets up
// no frame for the seven arguments of WideLanes.
template <class F>
[[gnu::noinline]] void WideOne(Wave& w, const Decoded& d) {
  BlockLanes<F>(w.Slot(d.dst[0]), w.Slot(d.src[0][0]), w.Slot(d.src[1][0]),
                w.Slot(d.src[2][0]), w.Slot(d.src[3][0]), w.active.data(),
                w.lanes);
}

template <class F>
void AluOne(Wave& w, const Decoded& d) {
  const uint32_t n = w.lanes;
  if (n >= 4) return WideOne<F>(w, d);
  uint32_t* const out = w.Slot(d.dst[0]);
  const uint32_t *a = w.Slot(d.src[0][0]), *b = w.Slot(d.src[1][0]),
                 *c = w.Slot(d.src[2][0]), *e = w.Slot(d.src[3][0]),
                 *m = w.active.data();
#pragma clang loop vectorize(disable) unroll(disable)
  for (uint32_t l = 0; l < n; ++l)
    out[l] = Select(m[l], F::F(a[l], b[l], c[l], e[l]), out[l]);
}

// Destinations that later components read: compute all, then write (E-8).
template <class F>
void AluBuffered(Wave& w, const Decoded& d) {
  const uint32_t n = w.lanes;
  for (int c = 0; c < 4; ++c) {
    if (!(d.mask & (1u << c))) continue;
    const size_t k = static_cast<size_t>(c);
    uint32_t* out = w.scratch.data() + k * n;
    const uint32_t *a = w.Slot(d.src[0][k]), *b = w.Slot(d.src[1][k]),
                   *x = w.Slot(d.src[2][k]), *e = w.Slot(d.src[3][k]);
    for (uint32_t l = 0; l < n; ++l) out[l] = F::F(a[l], b[l], x[l], e[l]);
  }
  for (int c = 0; c < 4; ++c) {
    if (!(d.mask & (1u << c))) continue;
    const size_t k = static_cast<size_t>(c);
    uint32_t* dst = w.Slot(d.dst[k]);
    const uint32_t* out = w.scratch.data() + k * n;
    for (uint32_t l = 0; l < n; ++l)
      dst[l] = Select(w.active[l], out[l], dst[l]);
  }
}

// imul/umul: high half to dst_hi, low half to dst, both from the sources.
// Every product is computed before anything is written (lo halves in
// scratch[k], hi halves in scratch[4 + k]): either destination may be a
// source of a later component (E-8). Per component lo is written, then hi,
// as the oracle does.
template <bool kSigned>
void Mul(Wave& w, const Decoded& d) {
  const uint32_t n = w.lanes;
  for (int c = 0; c < 4; ++c) {
    const size_t k = static_cast<size_t>(c);
    if (!((d.mask | d.hi_mask) & (1u << c))) continue;
    const uint32_t *a = w.Slot(d.src[0][k]), *b = w.Slot(d.src[1][k]);
    uint32_t* out_lo = w.scratch.data() + k * n;
    uint32_t* out_hi = w.scratch.data() + (4 + k) * n;
    for (uint32_t l = 0; l < n; ++l) {
      const uint64_t p =
          kSigned ? static_cast<uint64_t>(int64_t{S(a[l])} * int64_t{S(b[l])})
                  : uint64_t{a[l]} * uint64_t{b[l]};
      out_lo[l] = static_cast<uint32_t>(p);
      out_hi[l] = static_cast<uint32_t>(p >> 32);
    }
  }
  for (int c = 0; c < 4; ++c) {
    const size_t k = static_cast<size_t>(c);
    if (d.mask & (1u << c)) {
      uint32_t* dst = w.Slot(d.dst[k]);
      const uint32_t* out = w.scratch.data() + k * n;
      for (uint32_t l = 0; l < n; ++l)
        dst[l] = Select(w.active[l], out[l], dst[l]);
    }
    if (d.hi_mask & (1u << c)) {
      uint32_t* dst = w.Slot(d.dst_hi[k]);
      const uint32_t* out = w.scratch.data() + (4 + k) * n;
      for (uint32_t l = 0; l < n; ++l)
        dst[l] = Select(w.active[l], out[l], dst[l]);
    }
  }
}

// The written component's slots to component 0, where AluOne reads them.
void OneComponent(Decoded& d) {
  const size_t k = static_cast<size_t>(std::countr_zero(d.mask));
  d.dst[0] = d.dst[k];
  for (auto& source : d.src) source[0] = source[k];
}

template <class F>
Handler Pick(Decoded& d, bool aliased) {
  // Picked once per instruction at compile time, so a software popcount
  // (baseline x86-64) costs nothing here.
  if (std::has_single_bit(d.mask)) {  // one component: never aliased
    OneComponent(d);
    return &AluOne<F>;
  }
  return aliased ? &AluBuffered<F> : &Alu<F>;
}

}  // namespace

Handler AluHandler(Op op, bool aliased, Decoded& d) {
  switch (op) {
    case Op::kMov: return Pick<Mov>(d, aliased);
    case Op::kMovc: return Pick<Movc>(d, aliased);
    case Op::kIAdd: return Pick<IAdd>(d, aliased);
    case Op::kINeg: return Pick<INeg>(d, aliased);
    case Op::kIMul: return &Mul<true>;
    case Op::kUMul: return &Mul<false>;
    case Op::kIMad:
    case Op::kUMad: return Pick<Mad>(d, aliased);
    case Op::kIShl: return Pick<IShl>(d, aliased);
    case Op::kIShr: return Pick<IShr>(d, aliased);
    case Op::kUShr: return Pick<UShr>(d, aliased);
    case Op::kAnd: return Pick<And>(d, aliased);
    case Op::kOr: return Pick<Or>(d, aliased);
    case Op::kXor: return Pick<Xor>(d, aliased);
    case Op::kNot: return Pick<Not>(d, aliased);
    case Op::kIEq: return Pick<IEq>(d, aliased);
    case Op::kINe: return Pick<INe>(d, aliased);
    case Op::kILt: return Pick<ILt>(d, aliased);
    case Op::kIGe: return Pick<IGe>(d, aliased);
    case Op::kULt: return Pick<ULt>(d, aliased);
    case Op::kUGe: return Pick<UGe>(d, aliased);
    case Op::kIMax: return Pick<IMax>(d, aliased);
    case Op::kIMin: return Pick<IMin>(d, aliased);
    case Op::kUMax: return Pick<UMax>(d, aliased);
    case Op::kUMin: return Pick<UMin>(d, aliased);
    case Op::kBfi: return Pick<Bfi>(d, aliased);
    case Op::kUbfe: return Pick<Ubfe>(d, aliased);
    case Op::kCountBits: return Pick<CountBits>(d, aliased);
    case Op::kFtoU: return Pick<FtoU>(d, aliased);
    case Op::kFtoI: return Pick<FtoI>(d, aliased);
    default: return Pick<Mov>(d, aliased);
  }
}

}  // namespace atomfuzz::targets::fast
