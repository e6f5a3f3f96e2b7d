// The compact binary form of an isa::Outcome that an isolated target's child
// sends to its parent. Little-endian, length-prefixed, versioned by a magic
// word. The decoder trusts nothing: every count is checked against the bytes
// left and against caps before anything is allocated.
#ifndef ATOMFUZZ_TARGETS_ISOLATION_OUTCOME_WIRE_H_
#define ATOMFUZZ_TARGETS_ISOLATION_OUTCOME_WIRE_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "isa/outcome.h"

namespace atomfuzz::targets {

inline constexpr uint32_t kOutcomeWireMagic = 0x314f4641;  // "AFO1"
inline constexpr uint32_t kMaxWireMessage = 1u << 16;      // bytes
inline constexpr uint32_t kMaxWireUavs = 64;               // u0..u63
inline constexpr uint64_t kMaxWireEvents = uint64_t{1} << 22;

std::string EncodeOutcome(const isa::Outcome& o);
// InvalidArgument "outcome wire: ..." for anything malformed: bad magic or
// enum value, a count past its cap or past the end, trailing bytes.
absl::StatusOr<isa::Outcome> DecodeOutcome(absl::string_view bytes);

}  // namespace atomfuzz::targets

#endif  // ATOMFUZZ_TARGETS_ISOLATION_OUTCOME_WIRE_H_
