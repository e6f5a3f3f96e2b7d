// Integer ALU semantics for one component lane, with undefined values
// propagated (spec 6.0: anything computed from an undefined value is
// undefined).
// Header-only: the interpreter evaluates a lane at most steps, and the call
// and the staging of its sources cost more than the arithmetic.
#ifndef ATOMFUZZ_ORACLE_ALU_H_
#define ATOMFUZZ_ORACLE_ALU_H_

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "absl/base/attributes.h"
#include "isa/opcode_table.h"
#include "oracle/value.h"

namespace atomfuzz::oracle {
namespace alu_internal {

inline int32_t S(uint32_t v) { return static_cast<int32_t>(v); }
inline uint32_t Bool(bool b) {
  return b ? 0xFFFFFFFFu : 0u;
}  // D3D's true is ~0

// Only the low 5 bits of a shift or bit-field operand count (FS 22.x ishl,
// ubfe, bfi).
inline uint32_t Ubfe(uint32_t width, uint32_t offset, uint32_t v) {
  width &= 31;
  offset &= 31;
  if (width == 0) return 0;
  if (width + offset < 32) return (v << (32 - width - offset)) >> (32 - width);
  return v >> offset;
}

inline uint32_t Bfi(uint32_t width, uint32_t offset, uint32_t insert,
                    uint32_t base) {
  width &= 31;
  offset &= 31;
  const uint32_t mask = static_cast<uint32_t>(((1ull << width) - 1) << offset);
  return ((insert << offset) & mask) | (base & ~mask);
}

// Float to integer as D3D defines it (docs/pixel-stage.md P.4, FS 3.2.3):
// toward zero; NaN is 0; out of range clamps to the nearest end; a
// denormal is flushed to zero first, which truncation does anyway.
inline uint32_t FtoU(uint32_t bits) {
  const float f = std::bit_cast<float>(bits);
  if (!(f > 0.0f)) return 0;  // NaN, zeros, negatives
  if (f >= 4294967296.0f) return 0xFFFFFFFFu;
  return static_cast<uint32_t>(f);
}
inline uint32_t FtoI(uint32_t bits) {
  const float f = std::bit_cast<float>(bits);
  if (f != f) return 0;
  if (f >= 2147483648.0f) return 0x7FFFFFFFu;
  if (f < -2147483648.0f) return 0x80000000u;
  return static_cast<uint32_t>(static_cast<int32_t>(f));
}

// The operation on defined bits.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline uint32_t Compute(isa::Op op, uint32_t a,
                                                     uint32_t b, uint32_t c,
                                                     uint32_t d, uint32_t* hi) {
  using isa::Op;
  switch (op) {
    case Op::kMov: return a;
    case Op::kIAdd: return a + b;
    case Op::kINeg: return 0u - a;
    case Op::kIMul: {
      const int64_t p = int64_t{S(a)} * int64_t{S(b)};
      *hi = static_cast<uint32_t>(static_cast<uint64_t>(p) >> 32);
      return static_cast<uint32_t>(p);
    }
    case Op::kUMul: {
      const uint64_t p = uint64_t{a} * uint64_t{b};
      *hi = static_cast<uint32_t>(p >> 32);
      return static_cast<uint32_t>(p);
    }
    case Op::kIMad:
    case Op::kUMad: return a * b + c;  // low 32 bits are sign-agnostic
    case Op::kIShl: return a << (b & 31);
    case Op::kIShr: return static_cast<uint32_t>(S(a) >> (b & 31));
    case Op::kUShr: return a >> (b & 31);
    case Op::kAnd: return a & b;
    case Op::kOr: return a | b;
    case Op::kXor: return a ^ b;
    case Op::kNot: return ~a;
    case Op::kIEq: return Bool(a == b);
    case Op::kINe: return Bool(a != b);
    case Op::kILt: return Bool(S(a) < S(b));
    case Op::kIGe: return Bool(S(a) >= S(b));
    case Op::kULt: return Bool(a < b);
    case Op::kUGe: return Bool(a >= b);
    case Op::kIMax: return S(a) > S(b) ? a : b;
    case Op::kIMin: return S(a) < S(b) ? a : b;
    case Op::kUMax: return a > b ? a : b;
    case Op::kUMin: return a < b ? a : b;
    case Op::kBfi: return Bfi(a, b, c, d);
    case Op::kUbfe: return Ubfe(a, b, c);
    case Op::kCountBits: return static_cast<uint32_t>(std::popcount(a));
    case Op::kFtoU: return FtoU(a);
    case Op::kFtoI: return FtoI(a);
    default: return 0;
  }
}

// Sources per op (those EvalAlu's definedness counts), from the opcode
// table's compile-time layout.
inline int Sources(isa::Op op) { return isa::Layout(op).sources(); }

}  // namespace alu_internal

// What EvalAlu gets as source `k` where no operand supplies it, for an op
// that reads `counted` sources: undefined where the op reads it (the
// instruction lacks it), defined where the op reads none (nothing to taint).
inline Value AbsentSource(size_t k, int counted) {
  return {0, static_cast<int>(k) >= counted};
}

// One lane of an ALU op. `src` holds the lane's source values in operand
// order, all four counted: the caller fills those the op does not read
// with defined values (FlatAlu, Execution::ExecAluLanes), so that the test
// is the same for every op. imul/umul return the high half in `hi` and the
// low half as the result; other ops leave `hi` alone.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline Value EvalAlu(
    isa::Op op, const std::array<Value, 4>& src, Value* hi) {
  if (op == isa::Op::kMovc) {
    // The condition picks a source; only the picked one needs to be defined.
    if (!src[0].defined) return Value::Undefined();
    return src[0].bits != 0 ? src[1] : src[2];
  }
  bool defined = true;
  for (const Value& s : src) defined &= s.defined;
  uint32_t high = 0;
  const uint32_t r = alu_internal::Compute(op, src[0].bits, src[1].bits,
                                           src[2].bits, src[3].bits, &high);
  if (hi != nullptr) *hi = {high, defined};
  return {r, defined};
}

}  // namespace atomfuzz::oracle

#endif  // ATOMFUZZ_ORACLE_ALU_H_
