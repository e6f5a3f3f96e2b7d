#include "fuzz/mutate/case_decoder.h"

#include "absl/strings/str_cat.h"
#include "fuzz/generate/choices.h"
#include "fuzz/generate/generator.h"
#include "isa/validator.h"

namespace atomfuzz::fuzz {

std::optional<isa::Case> ParseValidCase(absl::Span<const uint8_t> bytes) {
  const absl::string_view text(reinterpret_cast<const char*>(bytes.data()),
                               bytes.size());
  // Every case starts with a section or a description; choice bytes rarely
  // do, and this skips the reader for them.
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == absl::string_view::npos ||
      (text[first] != '[' && text[first] != '#')) {
    return std::nullopt;
  }
  absl::StatusOr<isa::Case> c = isa::ParseCase(text, "input.case");
  if (!c.ok() || !isa::Validate(*c).ok()) return std::nullopt;
  return *std::move(c);
}

absl::StatusOr<DecodedCase> DecodeCase(absl::Span<const uint8_t> bytes,
                                       const Policy& policy,
                                       const DecodeOptions& options) {
  if (bytes.size() > options.max_bytes) {
    return absl::OutOfRangeError(absl::StrCat(
        "input of ", bytes.size(), " bytes (limit ", options.max_bytes, ")"));
  }
  DecodedCase d;
  if (std::optional<isa::Case> c = ParseValidCase(bytes)) {
    d.c = *std::move(c);
    d.from_text = true;
  } else {
    ByteChoices choices(bytes);
    d.c = GenerateCase(choices, policy);
  }
  if (absl::Status s = CheckLimits(d.c, options.limits); !s.ok()) return s;
  return d;
}

}  // namespace atomfuzz::fuzz
