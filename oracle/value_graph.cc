#include "oracle/value_graph.h"

#include <numeric>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace atomfuzz::oracle {
namespace {

std::string Hex(uint32_t v) { return absl::StrFormat("0x%08x", v); }

struct Node {
  uint32_t seen = 0;       // ops that saw this value (edges out)
  uint32_t left = 0;       // ops that left this value (edges in)
  uint32_t component = 0;  // union-find parent
  uint32_t consumes = 0;   // of `seen`, consumes (they return it less one)
  std::optional<uint32_t> some_op;  // an op that saw it, for messages
};

// "N atomics returned V" for a value N ops saw: a consume returns the
// counter after its decrement (spec 1.6), so the message names what the
// target returned, not the value the counter held.
std::string Returned(const Node& node, uint32_t value) {
  const std::string count =
      absl::StrCat(node.seen, node.seen == 1 ? " atomic" : " atomics");
  if (node.consumes == 0) return absl::StrCat(count, " returned ", Hex(value));
  if (node.consumes == node.seen) {
    return absl::StrCat(count, " returned ", Hex(value - 1),
                        " (imm_atomic_consume returns the counter after its "
                        "decrement, so the counter held ",
                        Hex(value), ")");
  }
  return absl::StrCat(count, " saw the counter at ", Hex(value), " (",
                      node.seen - node.consumes, " imm_atomic_alloc returned ",
                      Hex(value), ", ", node.consumes,
                      " imm_atomic_consume returned ", Hex(value - 1), ")");
}

class Graph {
 public:
  // At most two values per op, plus the start: no regrowth while building
  // (the search builds a graph at every branch); a small graph lives on
  // the stack.
  explicit Graph(size_t ops) : capacity_(2 * ops + 1) {
    nodes_.reserve(capacity_);
    values_.reserve(capacity_);
  }
  uint32_t Id(uint32_t value) {
    // A word's few values: a scan beats hashing (the order of first sight,
    // which messages follow, is the same either way).
    if (index_.empty()) {
      for (uint32_t n = 0; n < values_.size(); ++n) {
        if (values_[n] == value) return n;
      }
      if (values_.size() < kScanned) return Add(value);
      index_.reserve(capacity_);
      for (uint32_t n = 0; n < values_.size(); ++n)
        index_.emplace(values_[n], n);
    }
    auto [it, added] =
        index_.try_emplace(value, static_cast<uint32_t>(nodes_.size()));
    if (added) Add(value);
    return it->second;
  }
  uint32_t Find(uint32_t n) {
    while (nodes_[n].component != n) {
      nodes_[n].component = nodes_[nodes_[n].component].component;
      n = nodes_[n].component;
    }
    return n;
  }
  void Union(uint32_t a, uint32_t b) { nodes_[Find(a)].component = Find(b); }
  Node& node(uint32_t n) { return nodes_[n]; }
  uint32_t value(uint32_t n) const { return values_[n]; }
  size_t size() const { return nodes_.size(); }

 private:
  static constexpr size_t kScanned = 16;  // values before the index is built
  size_t capacity_;
  uint32_t Add(uint32_t value) {
    const uint32_t n = static_cast<uint32_t>(nodes_.size());
    nodes_.push_back({});
    nodes_.back().component = n;
    values_.push_back(value);
    return n;
  }
  absl::flat_hash_map<uint32_t, uint32_t> index_;  // once past kScanned
  absl::InlinedVector<Node, kScanned> nodes_;
  absl::InlinedVector<uint32_t, kScanned> values_;
};

}  // namespace

TrailCheck CheckTrail(uint32_t start, absl::Span<const SerialOp* const> ops,
                      std::optional<uint32_t> final_value) {
  TrailCheck r;
  Graph g(ops.size());
  const uint32_t s = g.Id(start);
  absl::InlinedVector<uint32_t, 16> saw(
      ops.size());  // per op, the value it saw
  for (size_t i = 0; i < ops.size(); ++i) {
    const SerialOp* op = ops[i];
    const uint32_t before = SerialBefore(*op, *op->returned);
    const uint32_t a = saw[i] = g.Id(before),
                   b = g.Id(SerialApply(*op, before));
    ++g.node(a).seen;
    if (op->rmw == isa::Rmw::kConsume) ++g.node(a).consumes;
    ++g.node(b).left;
    if (!g.node(a).some_op) g.node(a).some_op = op->id;
    g.Union(a, b);
  }
  // Balance: the word holds a value (start once, plus once per op leaving
  // it) exactly as often as ops see it, except where the trail ends, once
  // more. The surpluses always sum to 1, so any imbalance includes a value
  // returned more often than the word could hold it: report that one, it
  // names what the target returned.
  std::optional<uint32_t> end;
  std::optional<uint32_t> second_end;
  for (uint32_t n = 0; n < g.size(); ++n) {
    const Node& node = g.node(n);
    const int64_t held = int64_t{node.left} + (n == s ? 1 : 0);
    const int64_t surplus = held - node.seen;
    if (surplus < 0) {
      r.culprit = node.some_op;
      r.why = absl::StrCat(
          Returned(node, g.value(n)), ", but no order lets the word hold ",
          Hex(g.value(n)), " more than ", held, held == 1 ? " time" : " times",
          " (as the start value or an atomic's result)");
      return r;
    }
    if (surplus == 1) (end ? second_end : end) = g.value(n);
  }
  if (second_end) {  // unreachable while the surpluses sum to 1; kept safe
    r.why = absl::StrCat("the word would end at both ", Hex(*end), " and ",
                         Hex(*second_end));
    return r;
  }
  // Every op must be reachable from the start.
  for (size_t i = 0; i < ops.size(); ++i) {
    const SerialOp* op = ops[i];
    if (g.Find(saw[i]) != g.Find(s)) {
      r.culprit = op->id;
      r.why = absl::StrCat(
          "an atomic returned ", Hex(*op->returned),
          op->rmw == isa::Rmw::kConsume
              ? absl::StrCat(" (imm_atomic_consume: the counter "
                             "after its decrement, so it saw ",
                             Hex(*op->returned + 1), ")")
              : std::string(),
          ", a value no order of these atomics reaches from ", Hex(start));
      return r;
    }
  }
  r.end = end.value_or(start);
  if (final_value && *final_value != r.end) {
    r.why =
        absl::StrCat("the returned values chain from ", Hex(start), " to ",
                     Hex(r.end), ", but the final word is ", Hex(*final_value));
    return r;
  }
  r.ok = true;
  return r;
}

}  // namespace atomfuzz::oracle
