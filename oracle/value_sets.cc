#include "oracle/value_sets.h"

#include <algorithm>

#include "oracle/alu.h"

namespace atomfuzz::oracle {

Value ValueSets::Of(std::vector<uint32_t>& values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  if (values.empty() || values.size() > kMaxValues) return Value::Undefined();
  if (values.size() == 1) return Value::Of(values[0]);
  const uint32_t begin = static_cast<uint32_t>(pool_.size());
  pool_.insert(pool_.end(), values.begin(), values.end());
  ranges_.emplace_back(begin, static_cast<uint32_t>(pool_.size()));
  return Value::Set(static_cast<uint32_t>(ranges_.size() - 1));
}

Value ValueSets::Union(absl::Span<const Value> values) {
  std::vector<uint32_t> all;
  for (const Value& v : values) {
    uint32_t one;
    const absl::Span<const uint32_t> e = Elements(v, one);
    if (e.empty()) return Value::Undefined();
    all.insert(all.end(), e.begin(), e.end());
    if (all.size() > 4 * kMaxValues) return Value::Undefined();
  }
  return Of(all);
}

Value ValueSets::EvalAlu(isa::Op op, const std::array<Value, 4>& src, Value* hi) {
  if (std::none_of(src.begin(), src.end(), [](const Value& v) { return v.set; })) {
    return oracle::EvalAlu(op, src, hi);
  }
  if (hi != nullptr) *hi = Value::Undefined();
  std::array<uint32_t, 4> ones;
  std::array<absl::Span<const uint32_t>, 4> e;
  for (size_t k = 0; k < 4; ++k) e[k] = Elements(src[k], ones[k]);
  if (op == isa::Op::kMovc) {
    // The condition picks a source: the picked ones' values, together.
    if (e[0].empty()) return Value::Undefined();
    const bool any_true = std::any_of(e[0].begin(), e[0].end(), [](uint32_t c) { return c != 0; });
    const bool any_false = std::any_of(e[0].begin(), e[0].end(), [](uint32_t c) { return c == 0; });
    if (!any_false) return src[1];
    if (!any_true) return src[2];
    return Union({src[1], src[2]});
  }
  size_t combinations = 1;
  for (const auto& s : e) {
    if (s.empty()) return Value::Undefined();
    combinations *= s.size();
    if (combinations > kMaxCombinations) return Value::Undefined();
  }
  scratch_.clear();
  scratch_hi_.clear();
  for (size_t n = 0; n < combinations; ++n) {
    size_t rest = n;
    std::array<uint32_t, 4> v;
    for (size_t k = 0; k < 4; ++k) {
      v[k] = e[k][rest % e[k].size()];
      rest /= e[k].size();
    }
    uint32_t high = 0;
    scratch_.push_back(alu_internal::Compute(op, v[0], v[1], v[2], v[3], &high));
    if (hi != nullptr) scratch_hi_.push_back(high);
  }
  if (hi != nullptr) *hi = Of(scratch_hi_);
  return Of(scratch_);
}

}  // namespace atomfuzz::oracle
