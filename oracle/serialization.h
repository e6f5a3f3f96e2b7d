// Does some total order of the atomics on one memory word explain what was
// observed? (spec 2.1: atomics on one address serialize in an undefined
// order; the judge must accept every legal order.)
//
// Each op belongs to a chain (one thread: program order is kept) and to a
// (group, interval): ops of a group's later barrier interval follow all of
// its earlier ones. An op's observed return, when known, must equal what it
// returns in the order; the value after the last op must equal `final` when
// given.
//
// With known returns, each step has few candidates (usually one: the op
// whose return is the current value), so traceable values (distinct addends,
// one-hot bits, unique exchange values) rebuild the order in O(n log n). In
// general it is a memoized backtracking search with a step budget.
#ifndef ATOMFUZZ_ORACLE_SERIALIZATION_H_
#define ATOMFUZZ_ORACLE_SERIALIZATION_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "isa/opcode_table.h"

namespace atomfuzz::oracle {

struct SerialOp {
  uint32_t chain = 0;  // thread; ops of one chain are listed in program order
  uint32_t group = 0;
  uint32_t interval = 0;  // barrier interval of the group for this memory
  isa::Rmw rmw = isa::Rmw::kIAdd;  // kAlloc/kConsume for counters
  uint32_t src0 = 0, src1 = 0;
  std::optional<uint32_t> returned;  // nullopt: not observable (atomic_*)
  uint32_t id = 0;                   // caller's handle, echoed in explanations
};

struct SerialResult {
  enum class Kind : uint8_t { kAllowed, kDivergence, kUnknown };
  Kind kind = Kind::kAllowed;
  // The word's value after all ops, when every legal order agrees on it.
  std::optional<uint32_t> end;
  uint64_t steps = 0;               // search states expanded
  std::string why;                  // for kDivergence / kUnknown
  std::optional<uint32_t> culprit;  // id of an op no order explains
};

// What an op returns and leaves, given the value before it.
uint32_t SerialReturn(const SerialOp& op, uint32_t old);
uint32_t SerialApply(const SerialOp& op, uint32_t old);
// The value before an op that returned `returned`: SerialReturn inverted
// (consume returns the decremented counter).
uint32_t SerialBefore(const SerialOp& op, uint32_t returned);

SerialResult CheckSerialization(uint32_t start, absl::Span<const SerialOp> ops,
                                std::optional<uint32_t> final_value,
                                uint64_t budget);

}  // namespace atomfuzz::oracle

#endif  // ATOMFUZZ_ORACLE_SERIALIZATION_H_
