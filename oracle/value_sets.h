// The values a Value with `set` may hold (value.h): small sorted sets of
// 32-bit values, kept per pass and named by id. Where the spec allows one of
// a few values (racing stores, spec 2.1) the oracle says which, and what is
// computed from them stays a set while it is small: a judge that accepts
// any value there would let a wrong one through.
#ifndef ATOMFUZZ_ORACLE_VALUE_SETS_H_
#define ATOMFUZZ_ORACLE_VALUE_SETS_H_

#include <array>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "isa/opcode_table.h"
#include "oracle/value.h"

namespace atomfuzz::oracle {

class ValueSets {
 public:
  // Past this many values a set is any value (undefined): the outcome
  // stays readable and a set's arithmetic cheap.
  static constexpr size_t kMaxValues = 64;
  // Past this many combinations of its sources' values, an ALU op on sets
  // gives an undefined value rather than enumerate them.
  static constexpr size_t kMaxCombinations = 4096;

  // Work a pass may spend on sets (values combined or visited): past it,
  // what would be a set is undefined, so a hostile case cannot make a pass
  // run for minutes on sets in a loop.
  static constexpr uint64_t kMaxWork = uint64_t{1} << 24;

  // Forgets every set (ids restart), keeping the room.
  void Clear() {
    pool_.clear();
    ranges_.clear();
    work_ = 0;
  }
  // Takes `n` units of the pass's work; false (nothing taken) past kMaxWork.
  bool Charge(uint64_t n) {
    if (n > kMaxWork - work_) return false;
    work_ += n;
    return true;
  }
  size_t size() const { return ranges_.size(); }

  // The value that is one of `values` (any order, repeats allowed; sorted
  // in place) and holds `bits` in this run: defined for one value, a set
  // for up to kMaxValues (while ids last), else undefined.
  Value Of(std::vector<uint32_t>& values, uint32_t bits);
  // The values `v` may hold: one for a defined value (in `one`), the set's
  // for a set, none for an undefined value.
  absl::Span<const uint32_t> Elements(const Value& v, uint32_t& one) const {
    if (v.defined) {
      one = v.bits;
      return {&one, 1};
    }
    if (!v.set || v.id >= ranges_.size()) return {};
    const auto [begin, end] = ranges_[v.id];
    return absl::MakeConstSpan(pool_.data() + begin, end - begin);
  }
  // How many combinations of the values `parts` may hold there are (at
  // most 4 parts); 0 where a part is undefined or they are past `limit`.
  size_t Combinations(absl::Span<const Value> parts, size_t limit) const {
    size_t n = 1;
    uint32_t one;
    for (const Value& p : parts) {
      n *= Elements(p, one).size();
      if (n == 0 || n > limit) return 0;
    }
    return n;
  }
  // Each of those combinations to `visit(const std::array<uint32_t, 4>&)`,
  // the first part's value varying fastest.
  template <typename Visit>
  void ForEachCombination(absl::Span<const Value> parts, Visit visit) const {
    std::array<uint32_t, 4> ones{};
    std::array<absl::Span<const uint32_t>, 4> e;
    size_t n = 1;
    for (size_t k = 0; k < parts.size(); ++k) {
      e[k] = Elements(parts[k], ones[k]);
      n *= e[k].size();
    }
    for (size_t i = 0; i < n; ++i) {
      size_t rest = i;
      std::array<uint32_t, 4> v{};
      for (size_t k = 0; k < parts.size(); ++k) {
        v[k] = e[k][rest % e[k].size()];
        rest /= e[k].size();
      }
      visit(v);
    }
  }

  // One of `values`, holding `bits` in this run: undefined if any of them
  // is.
  Value Union(absl::Span<const Value> values, uint32_t bits);

  // EvalAlu (alu.h) where a source may be a set: the op on every
  // combination of its sources' values. Sources without a set go to
  // EvalAlu as they are.
  Value EvalAlu(isa::Op op, const std::array<Value, 4>& src, Value* hi);

 private:
  std::vector<uint32_t> pool_;  // the sets' values, one range each
  std::vector<std::pair<uint32_t, uint32_t>> ranges_;  // by id: [begin, end)
  std::vector<uint32_t> scratch_, scratch_hi_;
  uint64_t work_ = 0;
};

}  // namespace atomfuzz::oracle

#endif  // ATOMFUZZ_ORACLE_VALUE_SETS_H_
