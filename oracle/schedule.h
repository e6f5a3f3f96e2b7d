// Which thread runs next. Canonical: groups one after another, each thread
// of a group running until it finishes or waits at a barrier (deterministic).
// Random: at every instruction, a uniformly chosen runnable thread of any
// group, from our frozen PRNG; every interleaving that respects program
// order and barriers has a non-zero chance.
#ifndef ATOMFUZZ_ORACLE_SCHEDULE_H_
#define ATOMFUZZ_ORACLE_SCHEDULE_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace atomfuzz::oracle {

struct Schedule {
  enum class Kind : uint8_t { kCanonical, kRandom };
  Kind kind = Kind::kCanonical;
  uint64_t seed = 0;

  static Schedule Canonical() { return {}; }
  static Schedule Random(uint64_t seed) { return {Kind::kRandom, seed}; }
  // "canonical" or "random:SEED" (decimal or 0x hex).
  static absl::StatusOr<Schedule> Parse(absl::string_view text);
  std::string ToString() const;
};

}  // namespace atomfuzz::oracle

#endif  // ATOMFUZZ_ORACLE_SCHEDULE_H_
