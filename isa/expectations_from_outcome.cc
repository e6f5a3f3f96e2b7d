#include "isa/expectations_from_outcome.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace atomfuzz::isa {
namespace {

// What `u` allows for word w, or nullopt for any value.
std::optional<ValueSet> WordAllows(const UavState& u, uint32_t w) {
  if (u.defined[w]) return ValueSet{ValueSet::Kind::kExact, {u.words[w]}};
  if (const std::vector<uint32_t>* choices = u.ChoicesOf(w))
    return ValueSet{ValueSet::Kind::kOneOf, *choices};
  return std::nullopt;
}

}  // namespace

void SetExpectations(const Outcome& allowed, Case& c) {
  c.expect_words.clear();
  c.expect_counters.clear();
  c.expect_returns.clear();
  if (allowed.status != RunStatus::kOk) return;
  for (const UavState& u : allowed.uavs) {
    const uint32_t n =
        static_cast<uint32_t>(std::min(u.words.size(), u.defined.size()));
    for (uint32_t w = 0; w < n;) {
      std::optional<ValueSet> v = WordAllows(u, w);
      uint32_t last = w;
      while (last + 1 < n && WordAllows(u, last + 1) == v) ++last;
      if (v) c.expect_words.push_back({u.slot, w, last, *std::move(v), 0});
      w = last + 1;
    }
    if (u.counter && u.counter_defined) {
      c.expect_counters.push_back(
          {u.slot, ValueSet{ValueSet::Kind::kExact, {*u.counter}}, 0});
    }
  }
}

}  // namespace atomfuzz::isa
