// A target whose trace says which atomics ran and what they returned, but
// not where (an instrumented GPU run: isa::Outcome::trace_has_addresses),
// gets the rest from the oracle's run of the same case: the word, address
// class and operands of each of its events, matched by (group, thread,
// instruction, occurrence). Coverage, bucket signatures and reports then
// describe the real address on every target. Only fuzz/ may do this: it
// alone puts the oracle beside a target.
#ifndef ATOMFUZZ_FUZZ_TRACE_ADDRESSES_H_
#define ATOMFUZZ_FUZZ_TRACE_ADDRESSES_H_

#include "isa/case_file.h"
#include "isa/outcome.h"
#include "oracle/interpreter.h"

namespace atomfuzz::fuzz {

// Fills `target`'s events from the oracle's canonical run of `c` (under
// `budget`'s limits) when its trace lacks addresses; an event the oracle
// did not run keeps what it had, with an undefined address. Returns
// whether it filled anything.
bool CompleteTraceAddresses(const isa::Case& c,
                            const oracle::InterpretOptions& budget,
                            isa::Outcome& target);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_TRACE_ADDRESSES_H_
