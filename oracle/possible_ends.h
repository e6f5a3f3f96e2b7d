// Every value a word may hold after its atomics, in some legal order, when
// nobody saw what they returned (a target without a trace): spec 2.1 lets
// racing atomics serialize in any order that keeps each thread's program
// order and the group's barriers, so racing exchanges leave any one of
// their values, and an exchange racing an add leaves either sum.
#ifndef ATOMFUZZ_ORACLE_POSSIBLE_ENDS_H_
#define ATOMFUZZ_ORACLE_POSSIBLE_ENDS_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/types/span.h"
#include "oracle/serialization.h"

namespace atomfuzz::oracle {

// The end values, sorted, found by walking every order (states: each
// chain's position and the value so far, each visited once). nullopt past
// `max_values` values or `max_states` states: then the word is undefined
// to whoever asked, never a set that misses a legal value.
std::optional<std::vector<uint32_t>> PossibleEnds(
    uint32_t start, absl::Span<const SerialOp> ops, size_t max_values,
    uint64_t max_states);

}  // namespace atomfuzz::oracle

#endif  // ATOMFUZZ_ORACLE_POSSIBLE_ENDS_H_
