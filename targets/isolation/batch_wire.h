// The batch frames of an isolated target's fork server (Target::RunBatch
// through a child): the parent sends N cases, the child answers N results,
// in order. Little-endian and length-prefixed like outcome_wire.h; the
// decoders trust nothing (counts capped, every length checked against the
// bytes left before anything is allocated).
//   request: u32 n, then n x (u32 length, case text)
//   results: u32 n, then n x (u8 kind, u32 length, bytes), where kind 'O'
//            is an outcome in the outcome wire format and 'E' an error:
//            u8 status code, then the message.
#ifndef ATOMFUZZ_TARGETS_ISOLATION_BATCH_WIRE_H_
#define ATOMFUZZ_TARGETS_ISOLATION_BATCH_WIRE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "isa/case_file.h"
#include "isa/outcome.h"

namespace atomfuzz::targets {

inline constexpr uint32_t kMaxWireBatch = 4096;  // cases in one request

std::string EncodeBatchRequest(absl::Span<const isa::Case> cases);
// The case texts. InvalidArgument "batch wire: ..." when malformed.
absl::StatusOr<std::vector<std::string>> DecodeBatchRequest(
    absl::string_view bytes);

std::string EncodeBatchResults(
    absl::Span<const absl::StatusOr<isa::Outcome>> results);
// Exactly `expected` results (any other count is malformed); an error
// result keeps its code and message.
absl::StatusOr<std::vector<absl::StatusOr<isa::Outcome>>> DecodeBatchResults(
    absl::string_view bytes, size_t expected);

}  // namespace atomfuzz::targets

#endif  // ATOMFUZZ_TARGETS_ISOLATION_BATCH_WIRE_H_
