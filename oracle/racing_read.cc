#include "oracle/racing_read.h"

#include <algorithm>
#include <bit>
#include <vector>

#include "oracle/rmw.h"

namespace atomfuzz::oracle {
namespace {

// Whether write `w` is ordered before an access by `a`, the `seq`th of its
// thread: program order, or a barrier of the group between them.
bool OrderedBefore(const WriteRecord& w, const Accessor& a, uint32_t seq) {
  if (w.by.thread == a.thread) return w.seq < seq;
  return w.by.group == a.group && w.by.interval < a.interval;
}

// The word after `w` on `old`, or nullopt where an operand is not one value.
std::optional<uint32_t> Apply(const WriteRecord& w, uint32_t old) {
  if (w.store)
    return w.a.defined ? std::optional<uint32_t>(w.a.bits) : std::nullopt;
  if (w.rmw == isa::Rmw::kAlloc) return Alloc(old).next;
  if (w.rmw == isa::Rmw::kConsume) return Consume(old).next;
  if (!w.a.defined || (w.rmw == isa::Rmw::kCmpExch && !w.b.defined))
    return std::nullopt;
  return ApplyRmw(w.rmw, old, w.a.bits, w.b.bits);
}

// Whether two atomics give the same value in either order.
bool Commute(const WriteRecord& x, const WriteRecord& y) {
  return !x.store && !y.store && x.rmw == y.rmw && Commutes(x.rmw);
}

// Whether the writes end at one value in any order that keeps the order
// between those ordered: any two concurrent ones are atomics of one
// order-independent kind.
bool EndsAtOneValue(absl::Span<const WriteRecord* const> writes, bool tgsm) {
  for (size_t i = 0; i < writes.size(); ++i) {
    for (size_t j = i + 1; j < writes.size(); ++j) {
      const WriteRecord& x = *writes[i];
      const WriteRecord& y = *writes[j];
      if (!Concurrent(x.by, y.by, tgsm)) continue;
      if (!Commute(x, y)) return false;
    }
  }
  return true;
}

// Every value the writes make of `values`, each applied any number of
// times, in any order: more than can happen, never less. Undefined once
// past ValueSets::kMaxValues.
Value Closure(std::vector<uint32_t> values,
              absl::Span<const WriteRecord* const> writes, ValueSets& sets) {
  // An add repeated walks 2^32 / 2^(trailing zeros of its operand) values:
  // past the limit at once where that is more than kMaxValues.
  for (const WriteRecord* w : writes) {
    if (!w->store && w->rmw == isa::Rmw::kIAdd && w->a.defined &&
        w->a.bits != 0 && std::countr_zero(w->a.bits) < 32 - 6) {
      return Value::Undefined();
    }
  }
  for (size_t done = 0; done < values.size(); ++done) {
    for (const WriteRecord* w : writes) {
      const std::optional<uint32_t> after = Apply(*w, values[done]);
      if (!after) return Value::Undefined();
      if (std::find(values.begin(), values.end(), *after) == values.end()) {
        values.push_back(*after);
        if (values.size() > ValueSets::kMaxValues) return Value::Undefined();
      }
    }
  }
  return sets.Of(values, 0);
}

// The values the word may hold after `before` (in that order) with any of
// `racing` between them and after them, each any number of times.
Value Interleaved(Value initial, absl::Span<const WriteRecord* const> before,
                  absl::Span<const WriteRecord* const> racing,
                  ValueSets& sets) {
  std::vector<uint32_t> values;
  bool unknown = !initial.defined;  // the word may still hold anything
  if (!unknown) values.push_back(initial.bits);
  auto close = [&] {
    const Value v =
        unknown ? Value::Undefined() : Closure(values, racing, sets);
    uint32_t one;
    const absl::Span<const uint32_t> e = sets.Elements(v, one);
    values.assign(e.begin(), e.end());
    return !e.empty();
  };
  for (const WriteRecord* b : before) {
    if (!unknown && !close()) return Value::Undefined();
    if (b->store) {
      const std::optional<uint32_t> v = Apply(*b, 0);
      if (!v) return Value::Undefined();
      values = {*v};
      unknown = false;
      continue;
    }
    if (unknown) return Value::Undefined();
    for (uint32_t& v : values) {
      const std::optional<uint32_t> after = Apply(*b, v);
      if (!after) return Value::Undefined();
      v = *after;
    }
  }
  if (unknown) return Value::Undefined();
  return Closure(values, racing, sets);
}

// What a read (or, `atomic`, an atomic) may see of the word (RacingRead).
Value Sees(absl::Span<const WriteRecord> writes, const Accessor& reader,
           uint32_t seq, bool tgsm, bool atomic, Value initial,
           ValueSets& sets);

}  // namespace

Value RacingRead(absl::Span<const WriteRecord> writes, const Accessor& reader,
                 uint32_t seq, bool tgsm, Value initial, ValueSets& sets) {
  return Sees(writes, reader, seq, tgsm, false, initial, sets);
}

Value AtomicSees(absl::Span<const WriteRecord> writes, const Accessor& reader,
                 uint32_t seq, Value initial, ValueSets& sets) {
  return Sees(writes, reader, seq, false, true, initial, sets);
}

namespace {

Value Sees(absl::Span<const WriteRecord> writes, const Accessor& reader,
           uint32_t seq, bool tgsm, bool atomic, Value initial,
           ValueSets& sets) {
  // A few writes at most (the pairs below are quadratic), and within the
  // pass's work on sets: a loop of reads is bounded like any other set.
  if (writes.size() > kMaxWrites ||
      !sets.Charge(writes.size() * writes.size() +
                   ValueSets::kMaxValues * writes.size())) {
    return Value::Undefined();
  }
  std::vector<const WriteRecord*> before, racing;
  for (const WriteRecord& w : writes) {
    if (OrderedBefore(w, reader, seq)) {
      before.push_back(&w);
    } else if (Concurrent(w.by, reader, tgsm)) {
      racing.push_back(&w);
    }  // else ordered after the read: it cannot see it
  }
  // A non-atomic read of what another group writes is undefined (spec 2.3,
  // E-34: it would need _glc and fences, and nothing orders the groups).
  for (const WriteRecord* w : racing) {
    if (!atomic && w->by.group != reader.group) return Value::Undefined();
  }
  // On g# a store is not atomic with respect to an atomic it races with
  // (spec 2.1, E-27): the word is then undefined.
  if (tgsm) {
    std::vector<const WriteRecord*> all = before;
    all.insert(all.end(), racing.begin(), racing.end());
    for (const WriteRecord* x : all) {
      for (const WriteRecord* y : all) {
        if (x->store && !y->store && Concurrent(x->by, y->by, tgsm))
          return Value::Undefined();
      }
    }
  }
  // B: the value the writes before the read leave, in the listed order (a
  // legal one: the pass ran them so), wherever their order does not matter.
  if (!EndsAtOneValue(before, tgsm) || (!initial.defined && before.empty())) {
    return Value::Undefined();
  }
  // A racing write may also fall between the writes ordered before the
  // read, where it is concurrent with them: unless they commute, every
  // value the racing writes make at each point of that sequence.
  for (const WriteRecord* b : before) {
    for (const WriteRecord* r : racing) {
      if (Concurrent(b->by, r->by, tgsm) && !Commute(*b, *r)) {
        return Interleaved(initial, before, racing, sets);
      }
    }
  }
  // Otherwise the racing writes can all come after them, as if they did:
  // they commute with those they are concurrent with.
  std::optional<uint32_t> b =
      initial.defined ? std::optional<uint32_t>(initial.bits) : std::nullopt;
  for (const WriteRecord* w : before) {
    b = w->store ? Apply(*w, 0) : b ? Apply(*w, *b) : std::nullopt;
  }
  if (!b) return Value::Undefined();
  std::vector<uint32_t> values = {*b};
  const bool one_kind =
      !racing.empty() &&
      std::all_of(racing.begin(), racing.end(), [&](const WriteRecord* w) {
        return !w->store && w->rmw == racing[0]->rmw && Commutes(w->rmw);
      });
  if (one_kind) {
    // Each writer's own writes come in its order: a prefix of them applied.
    std::vector<uint32_t> next;
    for (size_t i = 0; i < racing.size();) {
      size_t end = i;
      while (end < racing.size() &&
             racing[end]->by.thread == racing[i]->by.thread)
        ++end;
      next = values;
      std::vector<uint32_t> step = values;
      for (size_t k = i; k < end; ++k) {
        for (uint32_t& v : step) {
          const std::optional<uint32_t> after = Apply(*racing[k], v);
          if (!after) return Value::Undefined();
          v = *after;
        }
        next.insert(next.end(), step.begin(), step.end());
      }
      std::sort(next.begin(), next.end());
      next.erase(std::unique(next.begin(), next.end()), next.end());
      if (next.size() > ValueSets::kMaxValues) return Value::Undefined();
      values.swap(next);
      i = end;
    }
    return sets.Of(values, 0);
  }
  return Closure(std::move(values), racing, sets);
}

}  // namespace
}  // namespace atomfuzz::oracle
