// The fast executor's own read-modify-write arithmetic (spec 1.4, 1.5),
// separate from the oracle's on purpose, plus the injected wrong variants.
// New(old, a, b): the new word (a = value, or comparand for cmp forms; b =
// cmp value). Ret(old, a): what dst0 receives.
#ifndef ATOMFUZZ_TARGETS_FAST_RMW_OPS_H_
#define ATOMFUZZ_TARGETS_FAST_RMW_OPS_H_

#include <atomic>
#include <cstdint>

namespace atomfuzz::targets::fast::rmw {

inline int32_t S(uint32_t v) { return static_cast<int32_t>(v); }

// kFetch: which std::atomic_ref member performs it in one instruction.
enum class Fetch { kNone, kAdd, kAnd, kOr, kXor, kExchange };

struct Base {
  static uint32_t Ret(uint32_t old, uint32_t) { return old; }
};
struct IAdd : Base {
  static constexpr Fetch kFetch = Fetch::kAdd;
  static uint32_t New(uint32_t o, uint32_t a, uint32_t) { return o + a; }
};
struct And : Base {
  static constexpr Fetch kFetch = Fetch::kAnd;
  static uint32_t New(uint32_t o, uint32_t a, uint32_t) { return o & a; }
};
struct Or : Base {
  static constexpr Fetch kFetch = Fetch::kOr;
  static uint32_t New(uint32_t o, uint32_t a, uint32_t) { return o | a; }
};
struct Xor : Base {
  static constexpr Fetch kFetch = Fetch::kXor;
  static uint32_t New(uint32_t o, uint32_t a, uint32_t) { return o ^ a; }
};
struct Exch : Base {
  static constexpr Fetch kFetch = Fetch::kExchange;
  static uint32_t New(uint32_t, uint32_t a, uint32_t) { return a; }
};
struct CmpExch : Base {
  static constexpr Fetch kFetch = Fetch::kNone;
  static uint32_t New(uint32_t o, uint32_t cmp, uint32_t v) {
    return o == cmp ? v : o;
  }
};
struct IMax : Base {
  static constexpr Fetch kFetch = Fetch::kNone;
  static uint32_t New(uint32_t o, uint32_t a, uint32_t) {
    return S(a) > S(o) ? a : o;
  }
};
struct IMin : Base {
  static constexpr Fetch kFetch = Fetch::kNone;
  static uint32_t New(uint32_t o, uint32_t a, uint32_t) {
    return S(a) < S(o) ? a : o;
  }
};
struct UMax : Base {
  static constexpr Fetch kFetch = Fetch::kNone;
  static uint32_t New(uint32_t o, uint32_t a, uint32_t) {
    return a > o ? a : o;
  }
};
struct UMin : Base {
  static constexpr Fetch kFetch = Fetch::kNone;
  static uint32_t New(uint32_t o, uint32_t a, uint32_t) {
    return a < o ? a : o;
  }
};

// Injected variants.
struct IAddSaturate : Base {
  static constexpr Fetch kFetch = Fetch::kNone;
  static uint32_t New(uint32_t o, uint32_t a, uint32_t) {
    const uint64_t sum = uint64_t{o} + a;
    return sum > 0xFFFFFFFFu ? 0xFFFFFFFFu : static_cast<uint32_t>(sum);
  }
};
struct CmpExchSwapped : Base {
  static constexpr Fetch kFetch = Fetch::kNone;
  static uint32_t New(uint32_t o, uint32_t cmp, uint32_t v) {
    return o == v ? cmp : o;
  }
};
struct CmpExchFlag {
  static constexpr Fetch kFetch = Fetch::kNone;
  static uint32_t New(uint32_t o, uint32_t cmp, uint32_t v) {
    return o == cmp ? v : o;
  }
  static uint32_t Ret(uint32_t old, uint32_t cmp) {
    return old == cmp ? 1u : 0u;
  }
};
struct IMaxUnsigned : UMax {};
struct IMinUnsigned : UMin {};
struct UMaxSigned : IMax {};
struct UMinSigned : IMin {};

// One atomic update of a UAV word shared with other workers.
template <class R>
inline uint32_t Apply(std::atomic_ref<uint32_t> word, uint32_t a, uint32_t b) {
  constexpr auto relaxed = std::memory_order_relaxed;
  if constexpr (R::kFetch == Fetch::kAdd) return word.fetch_add(a, relaxed);
  if constexpr (R::kFetch == Fetch::kAnd) return word.fetch_and(a, relaxed);
  if constexpr (R::kFetch == Fetch::kOr) return word.fetch_or(a, relaxed);
  if constexpr (R::kFetch == Fetch::kXor) return word.fetch_xor(a, relaxed);
  if constexpr (R::kFetch == Fetch::kExchange) return word.exchange(a, relaxed);
  uint32_t old = word.load(relaxed);
  while (
      !word.compare_exchange_weak(old, R::New(old, a, b), relaxed, relaxed)) {
  }
  return old;
}

}  // namespace atomfuzz::targets::fast::rmw

#endif  // ATOMFUZZ_TARGETS_FAST_RMW_OPS_H_
