// Finds an observed trace's event by who ran it (group, thread, instruction,
// occurrence): the judge looks up every atomic the spec executes. An open-
// addressing table of trace positions with linear probing, at most half
// full, whose room is kept from one trace to the next. abseil's map of the
// 32-byte keys cost the judge about 5k instructions per case to build (a
// hash of eight words per insertion, and an allocation); this one hashes
// with four multiplications and compares against the trace itself.
#ifndef ATOMFUZZ_ORACLE_INTERNAL_TRACE_INDEX_H_
#define ATOMFUZZ_ORACLE_INTERNAL_TRACE_INDEX_H_

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/base/attributes.h"
#include "isa/outcome.h"

namespace atomfuzz::oracle {

class TraceIndex {
 public:
  static constexpr uint32_t kAbsent = UINT32_MAX;

  // Indexes `trace`, which must outlive the lookups; an event whose key an
  // earlier one has is left out (Find gives the first, as a map's emplace
  // would).
  void Build(const std::vector<isa::AtomicEvent>& trace) {
    trace_ = &trace;
    size_t slots = 16;
    while (slots < 2 * trace.size()) slots *= 2;
    slots_.assign(slots, kAbsent);
    mask_ = slots - 1;
    shift_ = 64 - std::countr_zero(slots);
    for (uint32_t i = 0; i < trace.size(); ++i) {
      const isa::AtomicEvent& e = trace[i];
      size_t s = Home(e.group, e.thread, e.instruction, e.occurrence);
      for (; slots_[s] != kAbsent; s = (s + 1) & mask_) {
        if (Same(trace[slots_[s]], e.group, e.thread, e.instruction,
                 e.occurrence))
          break;
      }
      if (slots_[s] == kAbsent) slots_[s] = i;
    }
  }

  // The position of the first event with this key in the trace, or kAbsent.
  // Inlined: the judge asks at every atomic.
  ABSL_ATTRIBUTE_ALWAYS_INLINE uint32_t
  Find(const std::array<uint32_t, 3>& group,
       const std::array<uint32_t, 3>& thread, uint32_t instruction,
       uint32_t occurrence) const {
    for (size_t s = Home(group, thread, instruction, occurrence);;
         s = (s + 1) & mask_) {
      const uint32_t i = slots_[s];
      if (i == kAbsent ||
          Same((*trace_)[i], group, thread, instruction, occurrence)) {
        return i;
      }
    }
  }

 private:
  static bool Same(const isa::AtomicEvent& e,
                   const std::array<uint32_t, 3>& group,
                   const std::array<uint32_t, 3>& thread, uint32_t instruction,
                   uint32_t occurrence) {
    return e.instruction == instruction && e.occurrence == occurrence &&
           e.thread == thread && e.group == group;
  }
  // The key's eight words as four 64-bit ones, each times its own odd
  // constant: the sum's top bits depend on every key bit.
  size_t Home(const std::array<uint32_t, 3>& group,
              const std::array<uint32_t, 3>& thread, uint32_t instruction,
              uint32_t occurrence) const {
    auto pair = [](uint32_t lo, uint32_t hi) {
      return (uint64_t{hi} << 32) | lo;
    };
    const uint64_t h = pair(group[0], group[1]) * 0x9E3779B97F4A7C15ull +
                       pair(group[2], thread[0]) * 0xC2B2AE3D27D4EB4Full +
                       pair(thread[1], thread[2]) * 0x165667B19E3779F9ull +
                       pair(instruction, occurrence) * 0xD6E8FEB86659FD93ull;
    return static_cast<size_t>(h >> shift_);
  }

  const std::vector<isa::AtomicEvent>* trace_ = nullptr;
  std::vector<uint32_t> slots_;  // trace positions; kAbsent: empty
  size_t mask_ = 0;
  int shift_ = 64;
};

}  // namespace atomfuzz::oracle

#endif  // ATOMFUZZ_ORACLE_INTERNAL_TRACE_INDEX_H_
