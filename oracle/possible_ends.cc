#include "oracle/possible_ends.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"

namespace atomfuzz::oracle {
namespace {

// One point of the walk: how far each chain has gone, and the value.
struct State {
  std::vector<uint32_t> pos;
  uint32_t value = 0;
  bool operator==(const State&) const = default;
  template <typename H>
  friend H AbslHashValue(H h, const State& s) {
    return H::combine(std::move(h), s.pos, s.value);
  }
};

}  // namespace

std::optional<std::vector<uint32_t>> PossibleEnds(
    uint32_t start, absl::Span<const SerialOp> ops, size_t max_values,
    uint64_t max_states) {
  // Chains in first-appearance order; each lists its ops in program order.
  std::vector<std::vector<size_t>> chains;
  absl::flat_hash_map<uint32_t, size_t> chain_of;
  for (size_t i = 0; i < ops.size(); ++i) {
    auto [it, added] = chain_of.try_emplace(ops[i].chain, chains.size());
    if (added) chains.emplace_back();
    chains[it->second].push_back(i);
  }
  // An op may run once no op of its group in an earlier barrier interval
  // is left: count what is left per (group, interval).
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> left_initial;
  for (const SerialOp& o : ops) ++left_initial[{o.group, o.interval}];

  absl::flat_hash_set<uint32_t> ends;
  absl::flat_hash_set<State> seen;
  std::vector<State> stack = {
      State{std::vector<uint32_t>(chains.size(), 0), start}};
  seen.insert(stack.back());
  while (!stack.empty()) {
    const State s = std::move(stack.back());
    stack.pop_back();
    // What is left at this state, per (group, interval).
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> left = left_initial;
    bool done = true;
    for (size_t c = 0; c < chains.size(); ++c) {
      for (size_t k = 0; k < s.pos[c]; ++k) {
        const SerialOp& o = ops[chains[c][k]];
        --left[{o.group, o.interval}];
      }
      done = done && s.pos[c] == chains[c].size();
    }
    if (done) {
      ends.insert(s.value);
      if (ends.size() > max_values) return std::nullopt;
      continue;
    }
    for (size_t c = 0; c < chains.size(); ++c) {
      if (s.pos[c] == chains[c].size()) continue;
      const SerialOp& o = ops[chains[c][s.pos[c]]];
      bool earlier_left = false;
      for (auto it = left.lower_bound({o.group, 0});
           it != left.end() && it->first.first == o.group &&
           it->first.second < o.interval;
           ++it) {
        earlier_left = earlier_left || it->second > 0;
      }
      if (earlier_left) continue;
      State next = s;
      ++next.pos[c];
      next.value = SerialApply(o, s.value);
      if (!seen.insert(next).second) continue;
      if (seen.size() > max_states) return std::nullopt;
      stack.push_back(std::move(next));
    }
  }
  std::vector<uint32_t> out(ends.begin(), ends.end());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace atomfuzz::oracle
