#include "oracle/value_sets.h"

#include <algorithm>

#include "oracle/alu.h"

namespace atomfuzz::oracle {

Value ValueSets::Of(std::vector<uint32_t>& values, uint32_t bits) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  if (values.empty() || values.size() > kMaxValues ||
      ranges_.size() > UINT16_MAX) {
    return {bits, false};
  }
  if (values.size() == 1) return Value::Of(values[0]);
  const uint32_t begin = static_cast<uint32_t>(pool_.size());
  pool_.insert(pool_.end(), values.begin(), values.end());
  ranges_.emplace_back(begin, static_cast<uint32_t>(pool_.size()));
  return Value::Set(static_cast<uint16_t>(ranges_.size() - 1), bits);
}

Value ValueSets::Union(absl::Span<const Value> values, uint32_t bits) {
  std::vector<uint32_t> all;
  for (const Value& v : values) {
    uint32_t one;
    const absl::Span<const uint32_t> e = Elements(v, one);
    if (e.empty()) return {bits, false};
    all.insert(all.end(), e.begin(), e.end());
    if (all.size() > 4 * kMaxValues) return {bits, false};
  }
  return Of(all, bits);
}

Value ValueSets::EvalAlu(isa::Op op, const std::array<Value, 4>& src,
                         Value* hi) {
  if (std::none_of(src.begin(), src.end(),
                   [](const Value& v) { return v.set; })) {
    return oracle::EvalAlu(op, src, hi);
  }
  // This run's values first: what the op makes of its sources' bits.
  Value high_bits;
  const Value concrete =
      oracle::EvalAlu(op, src, hi != nullptr ? &high_bits : nullptr);
  if (hi != nullptr) *hi = {high_bits.bits, false};
  if (op == isa::Op::kMovc) {
    // The condition picks a source: the picked ones' values, together.
    const Value picked = src[0].bits != 0 ? src[1] : src[2];
    uint32_t one;
    const absl::Span<const uint32_t> cond = Elements(src[0], one);
    if (cond.empty()) return {picked.bits, false};
    const bool any_true = std::any_of(cond.begin(), cond.end(),
                                      [](uint32_t c) { return c != 0; });
    const bool any_false = std::any_of(cond.begin(), cond.end(),
                                       [](uint32_t c) { return c == 0; });
    if (!any_false) return src[1];
    if (!any_true) return src[2];
    return Union({src[1], src[2]}, picked.bits);
  }
  const size_t combinations = Combinations(src, kMaxCombinations);
  if (combinations == 0 || !Charge(combinations)) return {concrete.bits, false};
  scratch_.clear();
  scratch_hi_.clear();
  ForEachCombination(src, [&](const std::array<uint32_t, 4>& v) {
    uint32_t high = 0;
    scratch_.push_back(
        alu_internal::Compute(op, v[0], v[1], v[2], v[3], &high));
    if (hi != nullptr) scratch_hi_.push_back(high);
  });
  if (hi != nullptr) *hi = Of(scratch_hi_, high_bits.bits);
  return Of(scratch_, concrete.bits);
}

}  // namespace atomfuzz::oracle
