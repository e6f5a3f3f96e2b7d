// The oracle's own, spec-literal read-modify-write arithmetic (spec 1.4-1.6).
// The fast executor implements the same operations separately on purpose:
// shared code would hide the very bug the comparison exists to catch.
#ifndef ATOMFUZZ_ORACLE_RMW_H_
#define ATOMFUZZ_ORACLE_RMW_H_

#include <cstdint>

#include "isa/opcode_table.h"

namespace atomfuzz::oracle {

// The new memory word after `rmw` on `old` with value `src0` (and, for
// kCmpExch, comparand `src0` and new value `src1`). Counters are separate.
uint32_t ApplyRmw(isa::Rmw rmw, uint32_t old, uint32_t src0, uint32_t src1);

// Whether atomics of `rmw` alone on a word end at one value in any order
// (spec 2.4): the arithmetic and min/max ones, and the counters.
bool Commutes(isa::Rmw rmw);

// Counter atomics (spec 1.6, E-36): the value returned and the new counter.
struct CounterStep {
  uint32_t returned;
  uint32_t next;
};
CounterStep Alloc(uint32_t counter);    // returns the value before +1
CounterStep Consume(uint32_t counter);  // returns the value after -1

}  // namespace atomfuzz::oracle

#endif  // ATOMFUZZ_ORACLE_RMW_H_
