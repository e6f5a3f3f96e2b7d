#include "fuzz/trace_addresses.h"

#include <array>
#include <tuple>

#include "absl/container/flat_hash_map.h"

namespace atomfuzz::fuzz {
namespace {

using EventKey = std::tuple<std::array<uint32_t, 3>, std::array<uint32_t, 3>,
                            uint32_t, uint32_t>;

EventKey KeyOf(const isa::AtomicEvent& e) {
  return {e.group, e.thread, e.instruction, e.occurrence};
}

}  // namespace

bool CompleteTraceAddresses(const isa::Case& c,
                            const oracle::InterpretOptions& budget,
                            isa::Outcome& target) {
  if (target.trace_has_addresses || !target.has_trace || target.trace.empty())
    return false;
  oracle::InterpretOptions options = budget;
  options.schedule = oracle::Schedule{};  // canonical
  absl::StatusOr<isa::Outcome> reference = oracle::Interpret(c, options);
  if (!reference.ok() || !reference->has_trace) return false;
  absl::flat_hash_map<EventKey, const isa::AtomicEvent*> by_key;
  by_key.reserve(reference->trace.size());
  for (const isa::AtomicEvent& e : reference->trace) by_key[KeyOf(e)] = &e;
  for (isa::AtomicEvent& e : target.trace) {
    auto it = by_key.find(KeyOf(e));
    if (it == by_key.end()) {
      e.address = isa::AddressClass::kUndefined;  // the judge says why
      continue;
    }
    const isa::AtomicEvent& ref = *it->second;
    e.word = ref.word;
    e.address = ref.address;
    e.src0 = ref.src0;
    e.src1 = ref.src1;
  }
  target.trace_has_addresses = true;
  return true;
}

}  // namespace atomfuzz::fuzz
