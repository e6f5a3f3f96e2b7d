#include "oracle/remaining_trail.h"

#include <cassert>
#include <cstdlib>

#include "absl/container/flat_hash_map.h"

namespace atomfuzz::oracle {

RemainingTrail::RemainingTrail(absl::Span<const SerialOp> ops,
                               std::optional<uint32_t> final_value)
    : has_final_(final_value.has_value()) {
  absl::flat_hash_map<uint32_t, uint32_t> id;
  id.reserve(2 * ops.size());
  auto id_of = [&](uint32_t value) {
    return id.try_emplace(value, static_cast<uint32_t>(id.size())).first->second;
  };
  before_.resize(ops.size());
  after_.resize(ops.size());
  for (size_t i = 0; i < ops.size(); ++i) {
    const SerialOp& o = ops[i];
    // Invert SerialReturn: consume returns old - 1.
    const uint32_t before = o.rmw == isa::Rmw::kConsume ? *o.returned + 1 : *o.returned;
    before_[i] = id_of(before);
    after_[i] = id_of(SerialApply(o, before));
  }
  if (final_value) {
    auto it = id.find(*final_value);
    if (it != id.end()) final_ = it->second;
  }
  balance_.assign(id.size(), 0);
  parent_.resize(id.size());
  ops_left_.resize(ops.size());
  slot_.resize(ops.size());
  for (uint32_t i = 0; i < ops.size(); ++i) {
    ops_left_[i] = slot_[i] = i;
    --balance_[before_[i]];
    ++balance_[after_[i]];
  }
  remaining_ = static_cast<uint32_t>(ops.size());
  for (int32_t b : balance_) imbalance_ += static_cast<uint32_t>(std::abs(b));
}

void RemainingTrail::Place(size_t op) {
  // Swap op to the end of the prefix, then shorten it.
  const uint32_t last = ops_left_[remaining_ - 1], at = slot_[op];
  ops_left_[at] = last;
  slot_[last] = at;
  ops_left_[remaining_ - 1] = static_cast<uint32_t>(op);
  slot_[op] = remaining_ - 1;
  --remaining_;
  Shift(before_[op], +1);
  Shift(after_[op], -1);
}

void RemainingTrail::Unplace(size_t op) {
  // The last placed sits just past the prefix.
  assert(slot_[op] == remaining_);
  ++remaining_;
  Shift(before_[op], -1);
  Shift(after_[op], +1);
}

void RemainingTrail::Shift(uint32_t value, int32_t by) {
  imbalance_ -= static_cast<uint32_t>(std::abs(balance_[value]));
  balance_[value] += by;
  imbalance_ += static_cast<uint32_t>(std::abs(balance_[value]));
}

uint32_t RemainingTrail::Find(uint32_t n) {
  while (parent_[n] != n) {
    parent_[n] = parent_[parent_[n]];
    n = parent_[n];
  }
  return n;
}

bool RemainingTrail::PossibleAfter(size_t last) {
  const uint32_t at = after_[last];
  // Balance (see value_graph.cc): all balanced, and the trail ends at `at`;
  // or `at` one short and one other value one over, where it ends.
  const bool balanced = imbalance_ == 0;
  if (!balanced && !(imbalance_ == 2 && balance_[at] == -1)) return false;
  if (has_final_) {
    if (final_ == kNone) return false;
    if (balanced ? final_ != at : balance_[final_] != 1) return false;
  }
  // Connectivity: every remaining op reachable from `at`.
  parent_[at] = at;
  for (uint32_t k = 0; k < remaining_; ++k) {
    const uint32_t op = ops_left_[k];
    parent_[before_[op]] = before_[op];
    parent_[after_[op]] = after_[op];
  }
  for (uint32_t k = 0; k < remaining_; ++k) {
    const uint32_t op = ops_left_[k];
    parent_[Find(before_[op])] = Find(after_[op]);
  }
  const uint32_t root = Find(at);
  for (uint32_t k = 0; k < remaining_; ++k) {
    if (Find(before_[ops_left_[k]]) != root) return false;
  }
  return true;
}

}  // namespace atomfuzz::oracle
