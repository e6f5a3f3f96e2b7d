// A 32-bit register component or memory word with a taint bit: `defined`
// false means the spec allows any bit pattern here (spec 0.1, 6.0), unless
// `set` says it allows one of a few values (docs/semantics.md, "Values that
// are one of a few"): then `id` names them in the pass's ValueSets. Code
// that only tests `defined` treats a set as undefined, which is never
// wrong, only less precise. `bits` is always the value this run computed
// (of a set, the one this schedule produced): what the oracle reports as a
// target.
#ifndef ATOMFUZZ_ORACLE_VALUE_H_
#define ATOMFUZZ_ORACLE_VALUE_H_

#include <cstdint>

namespace atomfuzz::oracle {

struct Value {
  uint32_t bits = 0;
  bool defined = false;
  // Bytes 5-7 of the 8 (FlatAlu moves a Value as one word).
  uint8_t set = 0;  // 1: one of the values of set `id`
  uint16_t id = 0;

  static Value Of(uint32_t v) { return {v, true}; }
  static Value Undefined() { return {0, false}; }
  static Value Set(uint16_t id, uint32_t bits) { return {bits, false, 1, id}; }
  bool operator==(const Value&) const = default;
};

}  // namespace atomfuzz::oracle

#endif  // ATOMFUZZ_ORACLE_VALUE_H_
