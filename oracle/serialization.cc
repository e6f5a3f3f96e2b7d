#include "oracle/serialization.h"

#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "oracle/order_search.h"
#include "oracle/rmw.h"
#include "oracle/value_graph.h"

namespace atomfuzz::oracle {
namespace {

using isa::Rmw;
using serialization_internal::Search;

// Counters are one family: +1 and -1 commute with each other.
Rmw Family(Rmw r) { return r == Rmw::kConsume ? Rmw::kAlloc : r; }

std::string Hex(uint32_t v) { return absl::StrFormat("0x%08x", v); }

// Whether nothing but the values orders the ops: one op per thread, one
// barrier interval per group. Sorted copies: a word has few ops, and two
// hash maps cost more than sorting them.
bool Unconstrained(absl::Span<const SerialOp> ops) {
  absl::InlinedVector<uint32_t, 16> chains;
  absl::InlinedVector<std::pair<uint32_t, uint32_t>, 16>
      intervals;  // (group, interval)
  chains.reserve(ops.size());
  intervals.reserve(ops.size());
  for (const SerialOp& o : ops) {
    chains.push_back(o.chain);
    intervals.emplace_back(o.group, o.interval);
  }
  std::sort(chains.begin(), chains.end());
  if (std::adjacent_find(chains.begin(), chains.end()) != chains.end())
    return false;
  std::sort(intervals.begin(), intervals.end());
  for (size_t i = 1; i < intervals.size(); ++i) {
    if (intervals[i].first == intervals[i - 1].first &&
        intervals[i].second != intervals[i - 1].second) {
      return false;
    }
  }
  return true;
}

// An upper bound on the steps Search can spend on n ops, or UINT64_MAX past
// `cap`. Search walks a tree whose edges are sequences of distinct ops (one
// per candidate chain head), at most sum_k n!/(n-k)! of them; each edge
// costs one step to take and at most n more for its trail check.
uint64_t SearchStepBound(size_t n, uint64_t cap) {
  uint64_t edges = 0, term = 1;
  for (size_t k = 0; k < n; ++k) {
    if (term > cap / (n - k)) return UINT64_MAX;
    term *= n - k;  // n!/(n-k-1)!: sequences of length k + 1
    if (term > cap - edges) return UINT64_MAX;
    edges += term;
  }
  if (edges > cap / (n + 1)) return UINT64_MAX;
  return edges * (n + 1);
}

// Whether the ops, in the order listed, are themselves a legal order: each
// chain's ops are listed in program order, each group's intervals do not go
// back, and every known return is what the op returns there. Sets *end to
// the value they leave. A few ops at most (kWitnessOps).
constexpr size_t kWitnessOps = 16;
bool ListedOrderIsLegal(uint32_t start, absl::Span<const SerialOp> ops,
                        std::optional<uint32_t> final_value, uint32_t* end) {
  absl::InlinedVector<std::pair<uint32_t, uint32_t>, kWitnessOps>
      last;  // (group, interval)
  uint32_t v = start;
  for (const SerialOp& o : ops) {
    if (o.returned && SerialReturn(o, v) != *o.returned) return false;
    auto it = std::find_if(last.begin(), last.end(),
                           [&](const auto& g) { return g.first == o.group; });
    if (it == last.end()) {
      last.emplace_back(o.group, o.interval);
    } else if (o.interval < it->second) {
      return false;
    } else {
      it->second = o.interval;
    }
    v = SerialApply(o, v);
  }
  if (final_value && *final_value != v) return false;
  *end = v;
  return true;
}

}  // namespace

uint32_t SerialReturn(const SerialOp& op, uint32_t old) {
  if (op.rmw == Rmw::kConsume) return Consume(old).returned;
  if (op.rmw == Rmw::kAlloc) return Alloc(old).returned;
  return old;  // spec 1.5, E-7: every immediate atomic returns the old value
}

uint32_t SerialApply(const SerialOp& op, uint32_t old) {
  if (op.rmw == Rmw::kConsume) return Consume(old).next;
  if (op.rmw == Rmw::kAlloc) return Alloc(old).next;
  return ApplyRmw(op.rmw, old, op.src0, op.src1);
}

uint32_t SerialBefore(const SerialOp& op, uint32_t returned) {
  return op.rmw == Rmw::kConsume ? returned + 1 : returned;
}

SerialResult CheckSerialization(uint32_t start, absl::Span<const SerialOp> ops,
                                std::optional<uint32_t> final_value,
                                uint64_t budget) {
  SerialResult r;
  if (ops.empty()) {
    if (final_value && *final_value != start) {
      r.kind = SerialResult::Kind::kDivergence;
      r.why = absl::StrCat("no atomic touched it, yet it holds ",
                           Hex(*final_value), " instead of ", Hex(start));
      return r;
    }
    r.end = start;
    return r;
  }
  // Nothing observed but the end, and one commutative family: every order
  // ends at the same value (spec 2.4), no search needed.
  const bool blind =
      std::none_of(ops.begin(), ops.end(),
                   [](const SerialOp& o) { return o.returned.has_value(); });
  const Rmw family = Family(ops[0].rmw);
  const bool one_family =
      Commutes(family) &&
      std::all_of(ops.begin(), ops.end(),
                  [&](const SerialOp& o) { return Family(o.rmw) == family; });
  if (blind && one_family) {
    uint32_t v = start;
    for (const SerialOp& o : ops) v = SerialApply(o, v);
    if (final_value && *final_value != v) {
      r.kind = SerialResult::Kind::kDivergence;
      r.why = absl::StrCat("order-independent atomics end at ", Hex(v),
                           ", the final word is ", Hex(*final_value));
      return r;
    }
    r.end = v;
    return r;
  }
  const bool all_returned =
      std::all_of(ops.begin(), ops.end(),
                  [](const SerialOp& o) { return o.returned.has_value(); });
  // The order the ops are listed in is often legal itself (one or two ops,
  // or a target that ran them in the reference's order): spec 2.1 accepts
  // any legal order, so that one witness settles it. Exact only where the
  // search would surely find an order too: where its whole tree fits the
  // budget (it never gives up there) or where it is not run (every return
  // known, nothing else orders the ops). Its end is every legal order's
  // end when every return is known (the trail's end) or the final word is
  // given; otherwise, as below, not known to be unique.
  if (ops.size() <= kWitnessOps) {
    uint32_t end;
    if (ListedOrderIsLegal(start, ops, final_value, &end) &&
        (SearchStepBound(ops.size(), budget) != UINT64_MAX ||
         (all_returned && Unconstrained(ops)))) {
      if (all_returned || final_value) r.end = end;
      return r;
    }
  }
  // With every return known, a legal order is an Eulerian trail of the
  // value graph: necessary always, sufficient when nothing else orders the
  // ops (one per thread, one barrier interval per group).
  if (all_returned) {
    absl::InlinedVector<const SerialOp*, 16> all;
    all.reserve(ops.size());
    for (const SerialOp& o : ops) all.push_back(&o);
    const TrailCheck trail = CheckTrail(start, all, final_value);
    if (!trail.ok) {
      r.kind = SerialResult::Kind::kDivergence;
      r.why = trail.why;
      r.culprit = trail.culprit;
      return r;
    }
    if (Unconstrained(ops)) {
      r.end = trail.end;
      return r;
    }
  }
  // One Search per thread, reused: setting one up anew (a dozen vectors and
  // three hash maps) cost more than searching the usual few ops.
  thread_local Search reused;
  if (ops.size() <= Search::kReusedOps) {
    reused.Start(start, ops, final_value, budget);
    r = reused.Run();
  } else {
    Search search;
    search.Start(start, ops, final_value, budget);
    r = search.Run();
  }
  // With every return known the end value is the trail's end, the same for
  // all legal orders; otherwise it is not known to be unique.
  if (r.kind == SerialResult::Kind::kAllowed && !all_returned && !final_value) {
    r.end.reset();
  }
  return r;
}

}  // namespace atomfuzz::oracle
