#include "oracle/counter_slots.h"

#include <algorithm>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "oracle/addressing.h"
#include "oracle/execution.h"

namespace atomfuzz::oracle {
namespace {

// One store instruction's stores at allocs' returns: the structs they fill
// and what each store leaves in each of its words.
struct StoreGroup {
  uint32_t uav = 0;
  std::vector<uint32_t> stores;   // indices into the stores
  std::vector<uint32_t> structs;  // [start, start + N), sorted
  std::vector<std::array<int64_t, 4>>
      words;  // per struct, per component; -1: none
};

// Whether some assignment gives each store its own struct, with `fits`
// (store, struct) saying which pairs agree with final memory. Kuhn's
// augmenting paths: N is at most a set's size (ValueSets::kMaxValues).
template <typename Fits>
bool PerfectMatching(size_t n, const Fits& fits) {
  std::vector<int> owner(n, -1);  // struct -> store
  std::vector<char> seen(n);
  std::vector<std::vector<char>> edge(n, std::vector<char>(n));
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < n; ++j) edge[i][j] = fits(i, j);
  }
  auto augment = [&](auto&& self, size_t i) -> bool {
    for (size_t j = 0; j < n; ++j) {
      if (!edge[i][j] || seen[j]) continue;
      seen[j] = 1;
      if (owner[j] < 0 || self(self, static_cast<size_t>(owner[j]))) {
        owner[j] = static_cast<int>(i);
        return true;
      }
    }
    return false;
  };
  for (size_t i = 0; i < n; ++i) {
    std::fill(seen.begin(), seen.end(), 0);
    if (!augment(augment, i)) return false;
  }
  return true;
}

}  // namespace

void CounterSlots::Counted(uint32_t counter, isa::Rmw rmw,
                           const Value& returned) {
  Counter& c = counters_[counter];
  if (rmw != isa::Rmw::kAlloc) {
    c.consumed = true;
    return;
  }
  ++c.allocs;
  if (returned.set && allocs_by_set_.emplace(returned.id, counter).second)
    ++c.named;
}

void CounterSlots::Stored(uint32_t uav, uint32_t pc, const Value& index,
                          uint32_t offset, uint8_t mask, int count,
                          const std::array<Value, 4>& values) {
  stores_.push_back({uav, pc, offset, allocs_by_set_.at(index.id), index.id,
                     mask, count, values});
}

void CounterSlots::Check(const isa::Program& program,
                         absl::Span<const std::optional<Uav>> uavs,
                         const ValueSets& sets, const isa::Outcome& seen,
                         std::vector<Finding>& findings) const {
  if (stores_.empty()) return;
  std::vector<uint32_t> order(stores_.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  auto key = [&](uint32_t i) {
    const Store& s = stores_[i];
    return std::tie(s.uav, s.pc, s.offset, s.counter);
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return key(a) < key(b); });

  std::vector<StoreGroup> groups;
  for (size_t begin = 0, end; begin < order.size(); begin = end) {
    end = begin + 1;
    while (end < order.size() && key(order[end]) == key(order[begin])) ++end;
    const Store& first = stores_[order[begin]];
    const auto counter = counters_.find(first.counter);
    const size_t n = end - begin;
    // Each of the counter's allocs stored here once, and nothing else
    // wrote the UAV: only then are the structs' writers known.
    if (counter == counters_.end() || counter->second.consumed ||
        counter->second.named != counter->second.allocs ||
        n != counter->second.allocs || Mixed(first.uav) ||
        first.uav >= uavs.size() || !uavs[first.uav]) {
      continue;
    }
    StoreGroup g;
    g.uav = first.uav;
    g.stores.assign(order.begin() + static_cast<ptrdiff_t>(begin),
                    order.begin() + static_cast<ptrdiff_t>(end));
    std::vector<uint16_t> allocs;
    for (uint32_t i : g.stores) {
      allocs.push_back(stores_[i].alloc);
      uint32_t one;
      for (uint32_t v : sets.Elements(Value::Set(stores_[i].alloc, 0), one)) {
        g.structs.push_back(v);
      }
    }
    std::sort(allocs.begin(), allocs.end());
    if (std::adjacent_find(allocs.begin(), allocs.end()) != allocs.end())
      continue;
    std::sort(g.structs.begin(), g.structs.end());
    g.structs.erase(std::unique(g.structs.begin(), g.structs.end()),
                    g.structs.end());
    if (g.structs.size() != n)
      continue;  // not [start, start + N): not ours to judge
    const Uav& u = *uavs[g.uav];
    bool judged = true;
    for (uint32_t v : g.structs) {
      const WordRange r = ResolveRange(u.layout, v, first.offset, first.count);
      std::array<int64_t, 4> w = {-1, -1, -1, -1};
      for (int c = 0; c < first.count && !r.misaligned && !r.offset_overflow;
           ++c) {
        const size_t k = static_cast<size_t>(c);
        if (!(first.mask & (1u << c)) || !r.in_bounds[k]) continue;
        w[k] = static_cast<int64_t>(r.first_word + k);
        const Value& final_value = u.words[r.first_word + k];
        if (!final_value.defined && !final_value.set)
          judged = false;  // any value
      }
      g.words.push_back(w);
    }
    if (judged) groups.push_back(std::move(g));
  }
  // Two store instructions that reach one word: neither is its only writer.
  absl::flat_hash_map<uint64_t, size_t> writer;
  std::vector<char> overlaps(groups.size());
  for (size_t k = 0; k < groups.size(); ++k) {
    for (const auto& w : groups[k].words) {
      for (int64_t word : w) {
        if (word < 0) continue;
        const auto [it, fresh] = writer.emplace(
            (uint64_t{groups[k].uav} << 32) | static_cast<uint64_t>(word), k);
        if (!fresh && it->second != k) overlaps[k] = overlaps[it->second] = 1;
      }
    }
  }

  for (size_t k = 0; k < groups.size(); ++k) {
    const StoreGroup& g = groups[k];
    const isa::UavState* got = seen.FindUav(g.uav);
    if (overlaps[k] || got == nullptr ||
        got->words.size() != uavs[g.uav]->words.size()) {
      continue;  // a size mismatch is CompareMemory's finding
    }
    auto fits = [&](size_t i, size_t j) {
      const Store& s = stores_[g.stores[i]];
      uint32_t one;
      const auto could = sets.Elements(Value::Set(s.alloc, 0), one);
      if (!std::binary_search(could.begin(), could.end(), g.structs[j]))
        return false;
      for (size_t c = 0; c < 4; ++c) {
        if (g.words[j][c] < 0) continue;
        const uint32_t held = got->words[static_cast<size_t>(g.words[j][c])];
        const Value& v = s.values[c];
        if (v.defined && held != v.bits) return false;
        // The store's value is the index itself: that struct's number.
        if (!v.defined && v.set && v.id == s.alloc && held != g.structs[j])
          return false;
      }
      return true;
    };
    const size_t n = g.structs.size();
    if (PerfectMatching(n, fits)) continue;
    // Name a struct no store can have filled, where there is one.
    size_t empty = 0;
    while (empty < n) {
      size_t i = 0;
      while (i < n && !fits(i, empty)) ++i;
      if (i == n) break;
      ++empty;
    }
    const Store& s = stores_[g.stores.front()];
    const std::string range =
        absl::StrFormat("[%u, %u]", g.structs.front(), g.structs.back());
    Finding f{FindingKind::kWrongMemory, "",    "",
              static_cast<int>(s.pc),    false, static_cast<int>(g.uav)};
    const std::string store =
        absl::StrCat(program.instructions[s.pc].info().mnemonic, " (line ",
                     program.instructions[s.pc].line, ")");
    if (empty < n) {
      int64_t word = -1;
      for (int64_t w : g.words[empty]) {
        if (w >= 0 && word < 0) word = w;
      }
      f.where = absl::StrCat("u", g.uav, "[", word, "]");
      f.word = word;
      f.why = absl::StrFormat(
          "struct %u holds what no %s left: the %u allocs of u%u's counter "
          "hand out "
          "each index of %s once (spec 1.6), so each of those structs is "
          "stored once",
          g.structs[empty], store, n, s.counter, range);
    } else {
      f.where = absl::StrCat("u", g.uav);
      f.why = absl::StrFormat(
          "no one-to-one assignment of the %u allocs of u%u's counter to the "
          "indices %s "
          "(spec 1.6) explains what %s left there",
          n, s.counter, range, store);
    }
    findings.push_back(std::move(f));
  }
}

}  // namespace atomfuzz::oracle
