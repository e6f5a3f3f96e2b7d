// The value graph (value_graph.h) of the atomics a serialization search has
// not yet placed, kept up to date as it places and takes them back, last
// placed first. The search asks, for each candidate at each branch, whether
// the remaining ops can still form a trail: CheckTrail answers that by
// hashing every remaining op's values into a fresh graph. Here an op's two
// values (the one it saw is its known return, the one it left follows) come
// as dense ids, numbered once per search, degree balance changes by one edge
// per placed op, and only connectivity is recomputed per question.
#ifndef ATOMFUZZ_ORACLE_INTERNAL_REMAINING_TRAIL_H_
#define ATOMFUZZ_ORACLE_INTERNAL_REMAINING_TRAIL_H_

#include <cstdint>
#include <vector>

#include "absl/types/span.h"

namespace atomfuzz::oracle {

class RemainingTrail {
 public:
  // An op as the graph sees it: dense ids of the value it saw (its known
  // return, before it) and of the value it left.
  struct Edge {
    uint32_t before, after;
  };
  // Where every trail must end: kAnyEnd without a final value; kNoEnd when
  // the final value is none of the ops' values (then no trail fits).
  static constexpr uint32_t kAnyEnd = UINT32_MAX, kNoEnd = UINT32_MAX - 1;

  // `edges` per op, every id below `values`; none is placed yet.
  RemainingTrail() = default;
  RemainingTrail(absl::Span<const Edge> edges, size_t values, uint32_t end) {
    Reset(edges, values, end);
  }
  // As constructed anew, keeping the room.
  void Reset(absl::Span<const Edge> edges, size_t values, uint32_t end);

  // Op `op` (an index into edges) is placed, or taken back: the last placed.
  void Place(size_t op);
  void Unplace(size_t op);

  // CheckTrail(value op `last` left, remaining ops, final value).ok: whether
  // the ops not placed can still form a trail from there. `last` must be
  // placed (every value the word holds after the start is some op's after).
  // Costs about Width() steps.
  bool PossibleAfter(size_t last);
  // The distinct (before, after) pairs among all ops: what connectivity is
  // computed over (ops that repeat a pair add nothing to it).
  size_t Width() const { return pairs_.size(); }

 private:
  void Shift(uint32_t value, int32_t by);  // balance_[value] += by
  uint32_t Find(uint32_t n);

  std::vector<Edge> edges_;
  uint32_t end_ = kAnyEnd;
  // Per value: edges in minus edges out among remaining ops, and the sum of
  // their magnitudes. A trail from `at` needs every value balanced, or `at`
  // one short and the trail's end one over (held: the start once, plus once
  // per op leaving it, versus ops that see it).
  std::vector<int32_t> balance_;
  uint32_t imbalance_ = 0;
  // Remaining ops as a prefix [0, remaining_) of ops_left_; a placed op is
  // swapped to just past it, so taking back the last one is one step.
  std::vector<uint32_t> ops_left_, slot_;
  uint32_t remaining_ = 0;
  std::vector<uint32_t> parent_;  // union-find over value ids, per question
  // Per op its pair; per pair its values and how many remaining ops have it.
  std::vector<uint32_t> pair_of_;
  std::vector<Edge> pairs_;
  std::vector<uint32_t> pair_left_;
};

}  // namespace atomfuzz::oracle

#endif  // ATOMFUZZ_ORACLE_INTERNAL_REMAINING_TRAIL_H_
