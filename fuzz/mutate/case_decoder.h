// Fuzzer bytes -> a valid case. Bytes that read as a valid case file are that
// case, so seeds come straight from corpus/ and the custom mutators' text
// output runs as written; any other bytes are the generator's choices
// (ByteChoices), so every input names some valid case. Work is bounded: the
// input size and the case's size (fuzz/generate/case_limits.h) are capped.
#ifndef ATOMFUZZ_FUZZ_MUTATE_CASE_DECODER_H_
#define ATOMFUZZ_FUZZ_MUTATE_CASE_DECODER_H_

#include <cstddef>
#include <cstdint>
#include <optional>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "fuzz/generate/case_limits.h"
#include "fuzz/generate/policy.h"
#include "isa/case_file.h"

namespace atomfuzz::fuzz {

struct DecodeOptions {
  // Inputs above this are refused unread. The corpus's largest case is
  // about 18 KiB of text.
  size_t max_bytes = size_t{1} << 16;
  CaseLimits limits;
};

struct DecodedCase {
  isa::Case c;
  bool from_text = false;  // a case file, else generated from choices
};

// OutOfRange when the input or its case exceeds the options' bounds.
absl::StatusOr<DecodedCase> DecodeCase(absl::Span<const uint8_t> bytes,
                                       const Policy& policy,
                                       const DecodeOptions& options);

// The case if `bytes` are the text of a valid case, else nullopt.
std::optional<isa::Case> ParseValidCase(absl::Span<const uint8_t> bytes);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_MUTATE_CASE_DECODER_H_
