#include "oracle/internal/remaining_trail.h"

#include <cassert>
#include <cstdlib>

#include "absl/container/flat_hash_map.h"

namespace atomfuzz::oracle {

void RemainingTrail::Reset(absl::Span<const Edge> edges, size_t values,
                           uint32_t end) {
  edges_.assign(edges.begin(), edges.end());
  end_ = end;
  imbalance_ = 0;
  balance_.assign(values, 0);
  parent_.resize(values);
  ops_left_.resize(edges.size());
  slot_.resize(edges.size());
  for (uint32_t i = 0; i < edges.size(); ++i) {
    ops_left_[i] = slot_[i] = i;
    --balance_[edges[i].before];
    ++balance_[edges[i].after];
  }
  remaining_ = static_cast<uint32_t>(edges.size());
  for (int32_t b : balance_) imbalance_ += static_cast<uint32_t>(std::abs(b));
  // Distinct pairs, numbered in order of first sight.
  absl::flat_hash_map<uint64_t, uint32_t> ids;
  pairs_.clear();
  pair_left_.clear();
  pair_of_.resize(edges.size());
  for (uint32_t i = 0; i < edges.size(); ++i) {
    const uint64_t key = (uint64_t{edges[i].before} << 32) | edges[i].after;
    const auto [it, added] =
        ids.try_emplace(key, static_cast<uint32_t>(pairs_.size()));
    if (added) {
      pairs_.push_back(edges[i]);
      pair_left_.push_back(0);
    }
    pair_of_[i] = it->second;
    ++pair_left_[it->second];
  }
}

void RemainingTrail::Place(size_t op) {
  // Swap op to the end of the prefix, then shorten it.
  const uint32_t last = ops_left_[remaining_ - 1], at = slot_[op];
  ops_left_[at] = last;
  slot_[last] = at;
  ops_left_[remaining_ - 1] = static_cast<uint32_t>(op);
  slot_[op] = remaining_ - 1;
  --remaining_;
  --pair_left_[pair_of_[op]];
  Shift(edges_[op].before, +1);
  Shift(edges_[op].after, -1);
}

void RemainingTrail::Unplace(size_t op) {
  // The last placed sits just past the prefix.
  assert(slot_[op] == remaining_);
  ++remaining_;
  ++pair_left_[pair_of_[op]];
  Shift(edges_[op].before, -1);
  Shift(edges_[op].after, +1);
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
  const uint32_t at = edges_[last].after;
  // Balance (see value_graph.cc): all balanced, and the trail ends at `at`;
  // or `at` one short and one other value one over, where it ends.
  const bool balanced = imbalance_ == 0;
  if (!balanced && !(imbalance_ == 2 && balance_[at] == -1)) return false;
  if (end_ == kNoEnd) return false;
  if (end_ != kAnyEnd && (balanced ? end_ != at : balance_[end_] != 1))
    return false;
  // Connectivity: every remaining op reachable from `at`, over the pairs
  // remaining ops have.
  parent_[at] = at;
  for (size_t p = 0; p < pairs_.size(); ++p) {
    if (pair_left_[p] == 0) continue;
    parent_[pairs_[p].before] = pairs_[p].before;
    parent_[pairs_[p].after] = pairs_[p].after;
  }
  for (size_t p = 0; p < pairs_.size(); ++p) {
    if (pair_left_[p] != 0)
      parent_[Find(pairs_[p].before)] = Find(pairs_[p].after);
  }
  const uint32_t root = Find(at);
  for (size_t p = 0; p < pairs_.size(); ++p) {
    if (pair_left_[p] != 0 && Find(pairs_[p].before) != root) return false;
  }
  return true;
}

}  // namespace atomfuzz::oracle
