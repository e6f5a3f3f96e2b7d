#include "fuzz/mutate/byte_mutator.h"

#include <cstring>

#include "absl/strings/str_join.h"
#include "fuzz/generate/choices.h"

namespace atomfuzz::fuzz {

ByteMutator::ByteMutator(const Policy& policy, DecodeOptions decode)
    : policy_(&policy),
      decode_(decode),
      mutator_(policy, MutatorOptions{.limits = decode.limits}) {}

std::optional<isa::Case> ByteMutator::Decode(
    absl::Span<const uint8_t> data) const {
  absl::StatusOr<DecodedCase> d = DecodeCase(data, *policy_, decode_);
  if (!d.ok()) return std::nullopt;
  return std::move(d->c);
}

size_t ByteMutator::Write(const isa::Case& c,
                          const std::vector<std::string>& names, uint8_t* out,
                          size_t max_size) const {
  if (names.empty()) return 0;
  const std::string text = isa::PrintCase(c);
  if (text.size() > max_size || text.size() > decode_.max_bytes) return 0;
  std::memcpy(out, text.data(), text.size());
  last_ = absl::StrJoin(names, " ");
  return text.size();
}

size_t ByteMutator::Mutate(absl::Span<const uint8_t> data, uint8_t* out,
                           size_t max_size, uint64_t seed) const {
  std::optional<isa::Case> c = Decode(data);
  if (!c) return 0;
  SeededChoices choices(seed);
  const std::vector<std::string> names = mutator_.Mutate(*c, choices);
  return Write(*c, names, out, max_size);
}

size_t ByteMutator::CrossOver(absl::Span<const uint8_t> a,
                              absl::Span<const uint8_t> b, uint8_t* out,
                              size_t max_size, uint64_t seed) const {
  std::optional<isa::Case> ca = Decode(a);
  std::optional<isa::Case> cb = Decode(b);
  if (!ca || !cb) return 0;
  SeededChoices choices(seed);
  const isa::Case child = mutator_.CrossOver(*ca, *cb, choices);
  if (child == *ca) return 0;
  return Write(child, {"crossover"}, out, max_size);
}

}  // namespace atomfuzz::fuzz
