// What one execution of a case produced, in a form shared by the oracle and
// every target: the status, the final words of every UAV with a defined bit
// per word, the hidden counters, and (where the executor can observe it) the
// trace of every dynamic atomic with its resolved address and returned value.
#ifndef ATOMFUZZ_ISA_OUTCOME_H_
#define ATOMFUZZ_ISA_OUTCOME_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "isa/operand.h"

namespace atomfuzz::isa {

enum class RunStatus : uint8_t {
  kOk,
  kRejected,  // the executor refused the case (message says why)
  kCrashed,
  kTimedOut,
  kBudgetExceeded,  // an instruction budget ran out (endless loop)
  kInvalidCode,  // a translator emitted invalid code (message: the validator's)
};
// The last enumerator: decoders of outcomes from elsewhere check against it.
inline constexpr RunStatus kLastRunStatus = RunStatus::kInvalidCode;
absl::string_view RunStatusName(RunStatus s);

// A word the spec allows to end as one of a few values (racing stores,
// spec 2.1): its `defined` flag is false and its word one of `values`.
struct WordChoice {
  uint32_t word = 0;
  std::vector<uint32_t> values;  // sorted, at least two
  bool operator==(const WordChoice&) const = default;
};

// Final state of one UAV. `defined[i]` false means any value is allowed
// (spec 0.1), unless `choices` lists the few it may be: the oracle says
// so, targets leave every word defined and list no choices.
struct UavState {
  uint32_t slot = 0;
  std::vector<uint32_t> words;
  std::vector<bool> defined;        // same length as words
  std::vector<WordChoice> choices;  // sorted by word; words not defined
  // The values word `w` may hold where it is one of a few, else nullptr.
  const std::vector<uint32_t>* ChoicesOf(uint32_t w) const {
    auto it = std::lower_bound(
        choices.begin(), choices.end(), w,
        [](const WordChoice& c, uint32_t x) { return c.word < x; });
    return it != choices.end() && it->word == w ? &it->values : nullptr;
  }
  std::optional<uint32_t> counter;
  bool counter_defined = true;
  bool operator==(const UavState&) const = default;
};

// How an atomic's address resolved (spec 1.3).
enum class AddressClass : uint8_t {
  kInBounds,
  kSkip,        // out of bounds: memory untouched, dst0 undefined
  kUavPoison,   // misaligned, or structured offset past the stride
  kTgsmPoison,  // any g# access out of bounds or misaligned
  kUndefined,   // the address itself was undefined (spec 6.0)
};
inline constexpr int kAddressClassCount = 5;
absl::string_view AddressClassName(AddressClass c);

// One dynamic atomic.
struct AtomicEvent {
  std::array<uint32_t, 3> group = {0, 0, 0};
  std::array<uint32_t, 3> thread = {0, 0, 0};  // vThreadIDInGroup
  uint32_t instruction = 0;      // index into Program::instructions
  uint32_t occurrence = 0;       // earlier executions of it by this thread
  RegFile file = RegFile::kUav;  // kUav or kTgsm
  uint32_t slot = 0;             // u# or g#
  uint32_t word = 0;             // resolved word index (kInBounds)
  AddressClass address = AddressClass::kInBounds;
  uint32_t src0 = 0, src1 = 0;  // value (and cmp_exch's new value)
  // The word's value before the atomic as the executor observed it: what
  // dst0 received for imm_atomic_*, alloc and consume (consume: the value
  // after). For atomic_* only an instrumented executor sees it (the oracle
  // and the fast target do, a Vulkan trace cannot); nullopt = not observed
  // or undefined. The judge checks every value it is given.
  std::optional<uint32_t> returned;
  bool operator==(const AtomicEvent&) const = default;
};

struct Outcome {
  RunStatus status = RunStatus::kOk;
  std::string message;
  std::vector<UavState> uavs;  // sorted by slot
  bool has_trace = false;      // targets that cannot observe leave it false
  // False where the trace says which atomics ran and what they returned but
  // not where nor with which operands (an instrumented GPU run): RunOne
  // (fuzz/differential.h) takes word, address and operands from the
  // oracle's run of the same case, so coverage and reports hold.
  bool trace_has_addresses = true;
  std::vector<AtomicEvent> trace;

  const UavState* FindUav(uint32_t slot) const;
  // An outcome with no memory: a run that ended as `status` says why.
  static Outcome Ended(RunStatus status, std::string message) {
    Outcome o;
    o.status = status;
    o.message = std::move(message);
    return o;
  }
};

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_OUTCOME_H_
