// The order search behind CheckSerialization (serialization.h): internal
// to it, in a file of its own for its size.
#ifndef ATOMFUZZ_ORACLE_ORDER_SEARCH_H_
#define ATOMFUZZ_ORACLE_ORDER_SEARCH_H_

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/types/span.h"
#include "oracle/internal/bucket_lists.h"
#include "oracle/internal/remaining_trail.h"
#include "oracle/serialization.h"

namespace atomfuzz::oracle::serialization_internal {

// Iterative depth-first search over orders (no recursion: a million ops on
// one word must not exhaust the stack). State: each chain's position and the
// word's value; dead states are remembered by a 128-bit hash.
class Search {
 public:
  // Sets up a search of `ops`; a Search is reused, its room kept, so that
  // the many small searches allocate next to nothing (see CheckSerialization).
  void Start(uint32_t start, absl::Span<const SerialOp> ops,
             std::optional<uint32_t> final_value, uint64_t budget) {
    ops_ = ops;
    final_ = final_value;
    budget_ = budget;
    value_ = start;
    placed_ = 0;
    hash_ = {0, 0};
    failed_.clear();
    stack_.clear();
    pool_.clear();
    steps_ = 0;
    deepest_ = 0;
    why_.clear();
    culprit_.reset();
    // Dense chain and group numbers; chains as slices of one array.
    chain_index_.clear();
    group_index_.clear();
    chain_of_.resize(ops.size());
    group_of_.resize(ops.size());
    for (size_t i = 0; i < ops.size(); ++i) {
      chain_of_[i] =
          chain_index_.emplace(ops[i].chain, chain_index_.size()).first->second;
      group_of_[i] =
          group_index_.emplace(ops[i].group, group_index_.size()).first->second;
    }
    std::vector<size_t>& count = count_;
    count.assign(chain_index_.size() + 1, 0);
    for (size_t i = 0; i < ops.size(); ++i) ++count[chain_of_[i] + 1];
    CountIntervals(group_index_.size());
    for (size_t c = 1; c < count.size(); ++c) count[c] += count[c - 1];
    chain_begin_ = count;
    order_.resize(ops.size());
    for (size_t i = 0; i < ops.size(); ++i) order_[count[chain_of_[i]]++] = i;
    chains_ = chain_index_.size();
    pos_.assign(chains_, 0);
    tail_.resize(order_.size());
    tail_ready_.assign(chains_, false);
    keyed_ = false;
    blind_ops_ = static_cast<size_t>(std::count_if(
        ops_.begin(), ops_.end(),
        [](const SerialOp& o) { return !o.returned.has_value(); }));
    NumberValues();
    for (size_t c = 0; c < chains_; ++c) AddHead(c);
    stack_.reserve(ops.size() + 1);
    pool_.reserve(ops.size() + chains_);
  }

  // Whether a search of this many ops leaves room worth keeping: a large
  // one is freed with its Search instead.
  static constexpr size_t kReusedOps = 1024;

  SerialResult Run() {
    SerialResult r;
    const bool found = Dfs();
    r.steps = steps_;
    if (found) {
      r.end = value_;
      return r;
    }
    if (steps_ > budget_) {
      r.kind = SerialResult::Kind::kUnknown;
      r.why = absl::StrCat("no order found within ", budget_, " search steps");
      return r;
    }
    r.kind = SerialResult::Kind::kDivergence;
    r.culprit = culprit_;
    r.why = why_;
    return r;
  }

 private:
  static std::string Hex(uint32_t v) { return absl::StrFormat("0x%08x", v); }
  struct Frame {
    size_t begin, end, next;  // candidate chains in pool_[begin, end)
    size_t applied_chain;     // chain advanced to reach the child, if any
    uint32_t value_before;
  };

  static uint64_t Mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  bool Done(size_t c) const {
    return chain_begin_[c] + pos_[c] >= chain_begin_[c + 1];
  }
  size_t Head(size_t c) const { return order_[chain_begin_[c] + pos_[c]]; }

  // Dense numbers for the values ops require (their known returns, before
  // them): chains wait under them. With every return known, also for the
  // values ops leave, for the remaining ops' value graph.
  void NumberValues() {
    const bool trail = blind_ops_ == 0;
    value_ids_.clear();
    value_ids_.reserve(trail ? 2 * ops_.size() : ops_.size());
    auto id = [&](uint32_t value) {
      return value_ids_
          .try_emplace(value, static_cast<uint32_t>(value_ids_.size()))
          .first->second;
    };
    required_.resize(ops_.size());
    std::vector<RemainingTrail::Edge>& edges = edges_;
    edges.resize(trail ? ops_.size() : 0);
    for (size_t i = 0; i < ops_.size(); ++i) {
      const SerialOp& o = ops_[i];
      if (!o.returned) continue;
      const uint32_t before = SerialBefore(o, *o.returned);
      required_[i] = id(before);
      if (trail) edges[i] = {required_[i], id(SerialApply(o, before))};
    }
    blind_bucket_ = static_cast<uint32_t>(value_ids_.size());
    for (size_t i = 0; i < ops_.size(); ++i) {
      if (!ops_[i].returned) required_[i] = blind_bucket_;
    }
    heads_.Reset(value_ids_.size() + 1, chains_);
    has_trail_ = trail;
    if (trail) {
      uint32_t end = RemainingTrail::kAnyEnd;
      if (final_) {
        auto it = value_ids_.find(*final_);
        end = it == value_ids_.end() ? RemainingTrail::kNoEnd : it->second;
      }
      trail_.Reset(edges, value_ids_.size(), end);
    }
  }
  void CountIntervals(size_t groups) {
    // Per group its distinct intervals, ascending, as one slice of
    // interval_left_; lowest_[g] is the first slice entry with ops left.
    std::vector<std::pair<uint32_t, uint32_t>>& keys =
        interval_keys_;  // (group, interval)
    keys.clear();
    keys.reserve(ops_.size());
    for (size_t i = 0; i < ops_.size(); ++i)
      keys.emplace_back(group_of_[i], ops_[i].interval);
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    interval_left_.assign(keys.size(), 0);
    lowest_.assign(groups, 0);
    group_end_.assign(groups, 0);
    for (size_t k = keys.size(); k-- > 0;)
      lowest_[keys[k].first] = static_cast<uint32_t>(k);
    for (size_t k = 0; k < keys.size(); ++k) {
      group_end_[keys[k].first] = static_cast<uint32_t>(k + 1);
    }
    interval_of_.resize(ops_.size());
    for (size_t i = 0; i < ops_.size(); ++i) {
      const auto it =
          std::lower_bound(keys.begin(), keys.end(),
                           std::make_pair(group_of_[i], ops_[i].interval));
      interval_of_[i] = static_cast<uint32_t>(it - keys.begin());
      ++interval_left_[interval_of_[i]];
    }
  }

  void AddHead(size_t c) {
    if (Done(c)) return;
    heads_.Join(required_[Head(c)], static_cast<uint32_t>(c));
  }
  void RemoveHead(size_t c) {
    if (Done(c)) return;
    heads_.Leave(static_cast<uint32_t>(c));
  }
  bool Enabled(size_t c) const {
    const size_t op = Head(c);
    // Every op of the same group in an earlier interval must be done.
    return interval_of_[op] == lowest_[group_of_[op]];
  }
  void Advance(size_t c) {
    const size_t op = Head(c);
    const SerialOp& o = ops_[op];
    RemoveHead(c);
    value_ = SerialApply(o, value_);
    Shift(c, -1);
    if (has_trail_) trail_.Place(op);
    // An enabled op is of its group's lowest interval with ops left.
    const uint32_t g = group_of_[op];
    if (--interval_left_[interval_of_[op]] == 0) {
      while (lowest_[g] < group_end_[g] && interval_left_[lowest_[g]] == 0)
        ++lowest_[g];
    }
    ++pos_[c];
    Shift(c, +1);
    ++placed_;
    AddHead(c);
  }
  void Retreat(size_t c, uint32_t value_before) {
    RemoveHead(c);
    Shift(c, -1);
    --pos_[c];
    Shift(c, +1);
    --placed_;
    const size_t op = Head(c);
    ++interval_left_[interval_of_[op]];
    lowest_[group_of_[op]] = std::min(lowest_[group_of_[op]], interval_of_[op]);
    if (has_trail_) trail_.Unplace(op);
    value_ = value_before;
    AddHead(c);
  }
  // Signature of chain c's remaining ops: chains whose remaining ops are
  // identical are interchangeable (symmetry). 0 once the chain is done.
  uint64_t Tail(size_t c) {
    if (!tail_ready_[c]) {
      tail_ready_[c] = true;
      ComputeTails(c);
    }
    return Done(c) ? 0 : tail_[chain_begin_[c] + pos_[c]];
  }
  // tail_ for each position of chain c, from its end.
  void ComputeTails(size_t c) {
    uint64_t sig = 0x6A09E667F3BCC909ull;
    for (size_t k = chain_begin_[c + 1]; k-- > chain_begin_[c];) {
      const SerialOp& o = ops_[order_[k]];
      // One field per mixing round: packing several into one word let
      // distinct ops collide (src0 0x10000 in group 1 looked like src0
      // 0x20000 in group 2) and pruned a legal order.
      for (uint64_t field :
           {uint64_t{static_cast<uint8_t>(o.rmw)}, uint64_t{o.src0},
            uint64_t{o.src1}, uint64_t{o.group}, uint64_t{o.interval},
            o.returned ? (uint64_t{*o.returned} << 1) | 1 : 0}) {
        sig = Mix(sig ^ field) + 0x9E3779B97F4A7C15ull;
      }
      tail_[k] = sig | 1;  // never 0, a done chain's
    }
  }

  // The state's key is the value and the multiset of the chains' remaining
  // ops (a sum over chains of their tails' mixes): states that differ only
  // in which of two interchangeable threads went first are one state, so a
  // dead end found once is not searched again for every permutation of
  // threads that do the same things. (A set of the ops placed, as before,
  // told those states apart: hundreds of exchanges of a few values then
  // ran out of budget on orders that exist.)
  void Shift(size_t c, int sign) {
    if (!keyed_) return;  // no dead end yet: no key needed
    const uint64_t t = Tail(c);
    const uint64_t a = Mix(t ^ 0x243F6A8885A308D3ull),
                   b = Mix(t + 0x13198A2E03707344ull);
    if (sign > 0) {
      hash_.first += a;
      hash_.second += b;
    } else {
      hash_.first -= a;
      hash_.second -= b;
    }
  }
  // The state key from scratch, kept up to date by Shift from then on: a
  // search that never meets a dead end (most) never computes it.
  void StartKeying() {
    keyed_ = true;
    hash_ = {0, 0};
    for (size_t c = 0; c < chains_; ++c) Shift(c, +1);
  }
  std::pair<uint64_t, uint64_t> StateKey() const {
    return {hash_.first ^ (uint64_t{value_} * 0xD6E8FEB86659FD93ull),
            hash_.second ^ Mix(value_ + 0x632BE59BD9B4E019ull)};
  }

  // Pushes a frame for the current state with its candidate chains.
  //
  // An op whose known return is the current value and which leaves the value
  // unchanged (a max that loses, a failed cmp_exch, an or of set bits) can
  // always go first: in any legal order it sits where the word holds this
  // same value, and moving it here changes no other op's view, while its
  // chain and group only gain freedom. So it is the only candidate: without
  // this, n such ops would make the search try 2^n subsets.
  void Enter(size_t applied_chain, uint32_t value_before) {
    const size_t begin = pool_.size();
    if (placed_ < ops_.size() && !(keyed_ && failed_.contains(StateKey()))) {
      // The chains whose next op saw the current value, in the order they got
      // there.
      auto it = value_ids_.find(value_);
      const uint32_t first =
          it == value_ids_.end() ? BucketLists::kEnd : heads_.First(it->second);
      for (uint32_t c = first; c != BucketLists::kEnd; c = heads_.Next(c)) {
        if (!Enabled(c)) continue;
        if (SerialApply(ops_[Head(c)], value_) == value_) {
          pool_.resize(begin);
          pool_.push_back(c);
          break;
        }
        pool_.push_back(c);
      }
      const bool forced =
          pool_.size() == begin + 1 && ops_[Head(pool_[begin])].returned &&
          SerialApply(ops_[Head(pool_[begin])], value_) == value_;
      if (!forced) {
        for (uint32_t c = heads_.First(blind_bucket_); c != BucketLists::kEnd;
             c = heads_.Next(c)) {
          if (Enabled(c)) pool_.push_back(c);
        }
      }
      // Chains with identical remaining ops lead to identical states: keep one.
      if (pool_.size() > begin + 1) {
        seen_tails_.clear();
        size_t kept = begin;
        for (size_t k = begin; k < pool_.size(); ++k) {
          const size_t c = pool_[k];
          if (seen_tails_.insert(Tail(c)).second) pool_[kept++] = c;
        }
        pool_.resize(kept);
      }
      // At a branch, keep only the candidates after which the remaining ops
      // can still form a trail (value_graph.h, kept in remaining_trail.h):
      // Fleury's rule of not burning bridges. Without per-thread chains it
      // never backtracks. The trail needs every remaining return: an
      // atomic_* deeper in a chain (not only a blind head) has none, and
      // pruning on it rejected legal orders.
      if (pool_.size() > begin + 1 && blind_ops_ == 0) {
        size_t kept = begin;
        for (size_t k = begin; k < pool_.size(); ++k) {
          const size_t c = pool_[k];
          // Each check reads every distinct pair of values the ops make: it
          // spends search budget (a step per 16 pairs, about what a step of
          // the search costs), so wide branching ends as `unknown` instead
          // of running long.
          steps_ += 1 + trail_.Width() / 16;
          bool possible = true;
          if (steps_ <= budget_) {
            const uint32_t before = value_;
            const size_t op = Head(c);
            Advance(c);
            possible = trail_.PossibleAfter(op);
            Retreat(c, before);
          }
          if (possible) pool_[kept++] = c;
        }
        pool_.resize(kept);
      }
      if (pool_.size() == begin) Stuck();
    }
    stack_.push_back({begin, pool_.size(), begin, applied_chain, value_before});
  }

  bool Dfs() {
    Enter(SIZE_MAX, value_);
    while (!stack_.empty()) {
      Frame& f = stack_.back();
      if (placed_ == ops_.size()) {
        if (!final_ || *final_ == value_) return true;
        Note(absl::StrCat("every atomic fits an order, but it ends at ",
                          Hex(value_), " and the final word is ",
                          Hex(*final_)));
      } else if (f.next < f.end) {
        if (++steps_ > budget_) return false;
        const size_t c = pool_[f.next++];
        const uint32_t before = value_;
        Advance(c);
        Enter(c, before);
        continue;
      }
      // Dead end: remember it, undo the step that led here.
      if (!keyed_) StartKeying();
      failed_.insert(StateKey());
      const size_t chain = f.applied_chain;
      const uint32_t before = f.value_before;
      pool_.resize(f.begin);
      stack_.pop_back();
      if (chain != SIZE_MAX) Retreat(chain, before);
    }
    return false;
  }

  void Note(std::string why, std::optional<uint32_t> culprit = {}) {
    if (placed_ < deepest_ && !why_.empty()) return;
    deepest_ = placed_;
    why_ = std::move(why);
    culprit_ = culprit;
  }

  // No head op can go next: explain with one whose return does not fit.
  void Stuck() {
    for (size_t c = 0; c < chains_; ++c) {
      if (Done(c)) continue;
      const SerialOp& o = ops_[Head(c)];
      if (!o.returned || !Enabled(c)) continue;
      Note(absl::StrCat("after ", placed_, " of ", ops_.size(),
                        " atomics the word holds ", Hex(value_),
                        " and no remaining atomic can go next (op ", o.id,
                        " returned ", Hex(*o.returned), ")"),
           o.id);
      return;
    }
    Note(absl::StrCat("after ", placed_, " of ", ops_.size(),
                      " atomics no order can go on"));
  }

  absl::Span<const SerialOp> ops_;
  std::optional<uint32_t> final_;
  uint64_t budget_ = 0;
  uint32_t value_ = 0;
  // Start's and NumberValues' working room, kept between searches.
  absl::flat_hash_map<uint32_t, uint32_t> chain_index_, group_index_;
  std::vector<uint32_t> chain_of_;
  std::vector<size_t> count_;
  std::vector<std::pair<uint32_t, uint32_t>> interval_keys_;
  std::vector<RemainingTrail::Edge> edges_;
  size_t chains_ = 0;
  std::vector<size_t> chain_begin_;  // chain c is order_[begin[c], begin[c+1])
  std::vector<size_t> order_;        // op indices grouped by chain
  std::vector<uint32_t> group_of_;   // op -> dense group
  std::vector<size_t> pos_;
  size_t placed_ = 0;
  // dense group -> interval -> ops not yet placed
  // Per (group, interval), in order: ops not yet placed; per op its entry;
  // per group, its lowest entry with ops left (the interval it runs) and
  // the end of its entries.
  std::vector<uint32_t> interval_left_, interval_of_, lowest_, group_end_;
  // Chains with ops left, filed by the dense id of the value their next op
  // needs (required_), or under blind_bucket_ when it has no known return.
  absl::flat_hash_map<uint32_t, uint32_t> value_ids_;
  std::vector<uint32_t> required_;
  uint32_t blind_bucket_ = 0;
  BucketLists heads_;
  size_t blind_ops_ = 0;  // ops without a return, placed or not
  std::pair<uint64_t, uint64_t> hash_ = {0, 0};  // Shift's sums
  absl::flat_hash_set<std::pair<uint64_t, uint64_t>> failed_;
  std::vector<Frame> stack_;
  std::vector<size_t> pool_;
  // With every return known: the graph of the ops not yet placed.
  RemainingTrail trail_;
  bool has_trail_ = false;
  // By position in order_: the signature of the chain's ops from there on,
  // computed for a whole chain the first time it is asked for.
  std::vector<uint64_t> tail_;
  std::vector<bool> tail_ready_;
  bool keyed_ = false;  // hash_ is kept (StartKeying)
  absl::flat_hash_set<uint64_t> seen_tails_;
  uint64_t steps_ = 0;
  size_t deepest_ = 0;
  std::string why_;
  std::optional<uint32_t> culprit_;
};

}  // namespace atomfuzz::oracle::serialization_internal

#endif  // ATOMFUZZ_ORACLE_ORDER_SEARCH_H_
