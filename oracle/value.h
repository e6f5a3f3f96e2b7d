// A 32-bit register component or memory word with a taint bit: `defined`
// false means the spec allows any bit pattern here (spec 0.1, 6.0).
#ifndef ATOMFUZZ_ORACLE_VALUE_H_
#define ATOMFUZZ_ORACLE_VALUE_H_

#include <cstdint>

namespace atomfuzz::oracle {

struct Value {
  uint32_t bits = 0;
  bool defined = false;

  static Value Of(uint32_t v) { return {v, true}; }
  static Value Undefined() { return {0, false}; }
  bool operator==(const Value&) const = default;
};

}  // namespace atomfuzz::oracle

#endif  // ATOMFUZZ_ORACLE_VALUE_H_
