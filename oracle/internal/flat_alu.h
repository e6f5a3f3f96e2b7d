// An ALU instruction of one lane whose operands are temps, system values
// or immediates, with each operand resolved once (Decode) to what the lane
// reads and writes: a flat index into the thread's values (Thread::values:
// its system values, then its r#), or a constant. A step then reads no
// isa::Operand (its fields are spread out, and Read/Write re-derive the
// index at every step).
#ifndef ATOMFUZZ_ORACLE_INTERNAL_FLAT_ALU_H_
#define ATOMFUZZ_ORACLE_INTERNAL_FLAT_ALU_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "absl/base/attributes.h"
#include "isa/program.h"
#include "oracle/alu.h"
#include "oracle/system_values.h"
#include "oracle/value.h"

namespace atomfuzz::oracle {

struct FlatAlu {
  // A destination index that names no register: the write goes nowhere.
  static constexpr uint32_t kNone = UINT32_MAX;

  isa::Op op = isa::Op::kMov;
  uint32_t dst = kNone;  // index into Thread::values
  // The sources, all four filled as EvalAlu expects: `constant` holds each
  // one that reads no register (an immediate; undefined where the op would
  // read a source the instruction lacks; defined where the op reads none),
  // then the first `reg_count` of `reg_slot` are overwritten from
  // Thread::values at `reg` (r<n>.<c> is kSystemValueCount + n * 4 + c).
  // Registers apart: most sources are immediates or unread.
  std::array<Value, 4> constant;
  uint8_t reg_count = 0;
  std::array<uint8_t, 4> reg_slot = {};
  std::array<uint32_t, 4> reg = {};
  // Whether the op reads exactly the sources Run's case for it reads
  // (FlatSources), so that Run may skip the staging of all four.
  bool direct = false;
  // Source k as a word (Run): values[index[k]] & keep[k] | word[k]. A
  // register: keep all ones, word zero; a constant: keep zero, word the
  // constant, index 0 (any slot: one load, then no test).
  std::array<uint32_t, 4> index = {};
  std::array<uint64_t, 4> keep = {};
  std::array<uint64_t, 4> word = {};

  // The flat form of `inst` writing only `lane`, with `temp_values` r#
  // components per thread, given its first `sources` source operands and
  // that the op reads `counted` of them, into `out` (default-constructed);
  // false if an operand is an x#.
  static bool Of(const isa::Instruction& inst, int lane, size_t sources,
                 int counted, size_t temp_values, FlatAlu& out);

  // One step of the lane on the thread's values (Thread::values): what
  // EvalAlu computes from the staged sources, without staging them where
  // `direct` (most steps: a copy of four sources, then four tests of
  // definedness, cost more than a mov or an iadd). Returns false, having
  // written nothing, where a source is a set of values (value.h) and the
  // result would not be: the caller evaluates the step on sets instead.
  ABSL_ATTRIBUTE_ALWAYS_INLINE inline bool Run(Value* values) const;

 private:
  // A Value as one 8-byte word, bits low and `defined` in byte 4: a step
  // moves each source and its result in one load or store, not one per
  // field. Only bit 32 of the flag byte is read; the padding is copied as
  // it is (a mov) or written as zero.
  static constexpr uint64_t kDefined = uint64_t{1} << 32;
  static constexpr uint64_t kSet = uint64_t{1} << 40;  // Value::set, byte 5
  // Whether a register source is a set (constants never are).
  bool AnySetSource(const Value* values) const {
    for (size_t k = 0; k < reg_count; ++k) {
      if (values[reg[k]].set) return true;
    }
    return false;
  }
  ABSL_ATTRIBUTE_ALWAYS_INLINE uint64_t Word(const Value* values,
                                             size_t k) const {
    uint64_t w;
    std::memcpy(&w, values + index[k], sizeof w);
    return (w & keep[k]) | word[k];
  }
  // The op's N sources read in place, then Compute with `kOp` known, so
  // that its switch folds away.
  template <isa::Op kOp, int N>
  ABSL_ATTRIBUTE_ALWAYS_INLINE uint64_t Direct(const Value* values) const {
    const uint64_t a = Word(values, 0);
    const uint64_t b = N > 1 ? Word(values, 1) : kDefined;
    const uint64_t c = N > 2 ? Word(values, 2) : kDefined;
    const uint64_t e = N > 3 ? Word(values, 3) : kDefined;
    uint32_t high = 0;
    const uint32_t r = alu_internal::Compute(
        kOp, static_cast<uint32_t>(a), static_cast<uint32_t>(b),
        static_cast<uint32_t>(c), static_cast<uint32_t>(e), &high);
    return r | (a & b & c & e & kDefined);
  }
};

// How many sources FlatAlu::Run reads in place for `op` (what its case
// there passes to Direct), or -1 where it stages them for EvalAlu.
// FlatAlu::Of sets `direct` only where this equals the op's counted
// sources, so a mismatch costs speed, never a result.
int FlatSources(isa::Op op);

static_assert(sizeof(Value) == 8 && offsetof(Value, defined) == 4 &&
              offsetof(Value, set) == 5 && sizeof(bool) == 1 &&
              std::is_trivially_copyable_v<Value>);

inline bool FlatAlu::Run(Value* values) const {
  using isa::Op;
  uint64_t v;
  if (direct) {
    switch (op) {
      case Op::kMov: v = Word(values, 0); break;
      case Op::kMovc: {
        // Only the picked source needs to be defined (EvalAlu).
        const uint64_t cond = Word(values, 0);
        if (!(cond & kDefined)) {
          v = 0;  // Value::Undefined()
        } else {
          v = Word(values, static_cast<uint32_t>(cond) != 0 ? 1 : 2);
        }
        break;
      }
      case Op::kIAdd: v = Direct<Op::kIAdd, 2>(values); break;
      case Op::kINeg: v = Direct<Op::kINeg, 1>(values); break;
      case Op::kIMad: v = Direct<Op::kIMad, 3>(values); break;
      case Op::kUMad: v = Direct<Op::kUMad, 3>(values); break;
      case Op::kIShl: v = Direct<Op::kIShl, 2>(values); break;
      case Op::kIShr: v = Direct<Op::kIShr, 2>(values); break;
      case Op::kUShr: v = Direct<Op::kUShr, 2>(values); break;
      case Op::kAnd: v = Direct<Op::kAnd, 2>(values); break;
      case Op::kOr: v = Direct<Op::kOr, 2>(values); break;
      case Op::kXor: v = Direct<Op::kXor, 2>(values); break;
      case Op::kNot: v = Direct<Op::kNot, 1>(values); break;
      case Op::kIEq: v = Direct<Op::kIEq, 2>(values); break;
      case Op::kINe: v = Direct<Op::kINe, 2>(values); break;
      case Op::kILt: v = Direct<Op::kILt, 2>(values); break;
      case Op::kIGe: v = Direct<Op::kIGe, 2>(values); break;
      case Op::kULt: v = Direct<Op::kULt, 2>(values); break;
      case Op::kUGe: v = Direct<Op::kUGe, 2>(values); break;
      case Op::kIMax: v = Direct<Op::kIMax, 2>(values); break;
      case Op::kIMin: v = Direct<Op::kIMin, 2>(values); break;
      case Op::kUMax: v = Direct<Op::kUMax, 2>(values); break;
      case Op::kUMin: v = Direct<Op::kUMin, 2>(values); break;
      case Op::kBfi: v = Direct<Op::kBfi, 4>(values); break;
      case Op::kUbfe: v = Direct<Op::kUbfe, 3>(values); break;
      case Op::kCountBits: v = Direct<Op::kCountBits, 1>(values); break;
      default: return true;  // FlatSources is -1: never direct
    }
  } else {
    std::array<Value, 4> src = constant;
    for (size_t k = 0; k < reg_count; ++k) src[reg_slot[k]] = values[reg[k]];
    const Value r = EvalAlu(op, src, nullptr);
    std::memcpy(&v, &r, sizeof v);
  }
  // Undefined and not a set (a mov or movc passes a set on as it is):
  // rarely, a source was a set, and the result is one too.
  if (!(v & (kDefined | kSet)) && AnySetSource(values)) [[unlikely]] {
    return false;
  }
  if (dst != kNone) std::memcpy(values + dst, &v, sizeof v);
  return true;
}

}  // namespace atomfuzz::oracle

#endif  // ATOMFUZZ_ORACLE_INTERNAL_FLAT_ALU_H_
