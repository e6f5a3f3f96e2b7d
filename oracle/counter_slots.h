// Structs handed out by a counter, judged together without a trace.
//
// Without a trace an alloc's return is one of a few values
// (Execution::CounterReturns), and a store at that index a weak update of
// each struct it may reach. Yet the N allocs of a counter that only allocs
// return each value of [start, start + N) exactly once (spec 1.6, E-36): a
// store made once per alloc at the index it returned writes each of those
// structs once. Word by word, a struct that no store reached (an index
// handed out twice) passes; here final memory must be one one-to-one
// assignment of those stores to those structs (docs/semantics.md, "A
// UAV's counter is not one of its words").
#ifndef ATOMFUZZ_ORACLE_COUNTER_SLOTS_H_
#define ATOMFUZZ_ORACLE_COUNTER_SLOTS_H_

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/types/span.h"
#include "isa/opcode_table.h"
#include "isa/outcome.h"
#include "isa/program.h"
#include "oracle/replay.h"
#include "oracle/value.h"
#include "oracle/value_sets.h"

namespace atomfuzz::oracle {

struct Uav;

class CounterSlots {
 public:
  // u# slots past this are never judged here (their writes are not kept).
  static constexpr uint32_t kMaxSlots = 128;

  // An alloc or consume on u`counter`'s counter that returned `returned`.
  // An alloc's set (one new set per alloc: ValueSets::Of) names that alloc.
  void Counted(uint32_t counter, isa::Rmw rmw, const Value& returned);
  // Whether `v` is what an alloc returned, untouched since (a copy keeps
  // the set's id; arithmetic makes a new one).
  bool IsAllocReturn(const Value& v) const {
    return v.set && !allocs_by_set_.empty() && allocs_by_set_.contains(v.id);
  }
  // A structured store by instruction `pc` to u`uav` of `values` (its
  // first `count` components, those in `mask`) at byte `offset` of the
  // struct `index`, an alloc's return (IsAllocReturn).
  void Stored(uint32_t uav, uint32_t pc, const Value& index, uint32_t offset,
              uint8_t mask, int count, const std::array<Value, 4>& values);
  // Any other write to u`uav` (a store, an atomic, a poisoning): a struct
  // may then hold what no alloc's store left there.
  void OtherWrite(uint32_t uav) {
    if (uav < kMaxSlots) other_writes_[uav / 64] |= uint64_t{1} << (uav % 64);
  }

  // Findings where no assignment of the stores to the structs leaves the
  // words the target returned (`seen`); `uavs` and `sets` are the pass's.
  void Check(const isa::Program& program,
             absl::Span<const std::optional<Uav>> uavs, const ValueSets& sets,
             const isa::Outcome& seen, std::vector<Finding>& findings) const;

 private:
  struct Counter {
    uint32_t allocs = 0;
    uint32_t named = 0;  // allocs whose return is a set of their own
    bool consumed = false;
  };
  struct Store {
    uint32_t uav, pc, offset, counter;
    uint16_t alloc;  // the set id of the alloc's return
    uint8_t mask;
    int count;
    std::array<Value, 4> values;
  };
  bool Mixed(uint32_t uav) const {
    return uav >= kMaxSlots || (other_writes_[uav / 64] >> (uav % 64)) & 1;
  }

  absl::flat_hash_map<uint32_t, Counter> counters_;
  absl::flat_hash_map<uint16_t, uint32_t> allocs_by_set_;  // set id -> counter
  std::vector<Store> stores_;
  std::array<uint64_t, kMaxSlots / 64> other_writes_{};
};

}  // namespace atomfuzz::oracle

#endif  // ATOMFUZZ_ORACLE_COUNTER_SLOTS_H_
