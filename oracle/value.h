// A 32-bit register component or memory word with a taint bit: `defined`
// false means the spec allows any bit pattern here (spec 0.1, 6.0), unless
// `set` says it allows one of a few values (docs/semantics.md, "Values that
// are one of a few"): then `bits` is the id of those values in the pass's
// ValueSets. Code that only tests `defined` treats a set as undefined,
// which is never wrong, only less precise.
#ifndef ATOMFUZZ_ORACLE_VALUE_H_
#define ATOMFUZZ_ORACLE_VALUE_H_

#include <cstdint>

namespace atomfuzz::oracle {

struct Value {
  uint32_t bits = 0;
  bool defined = false;
  // Byte 5 of the 8 (FlatAlu moves a Value as one word): 1 for a set.
  uint8_t set = 0;

  static Value Of(uint32_t v) { return {v, true}; }
  static Value Undefined() { return {0, false}; }
  static Value Set(uint32_t id) { return {id, false, 1}; }
  bool operator==(const Value&) const = default;
};

}  // namespace atomfuzz::oracle

#endif  // ATOMFUZZ_ORACLE_VALUE_H_
