// JSON text for every command that prints it (run, judge, check, triage,
// export). One quoting rule: the output is valid UTF-8 whatever bytes a
// file name or a translator's message holds.
#ifndef ATOMFUZZ_ISA_JSON_H_
#define ATOMFUZZ_ISA_JSON_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"

namespace atomfuzz::isa {

// `s` as a JSON string literal: quotes, backslashes and control characters
// escaped; each byte that is not part of well-formed UTF-8 becomes U+FFFD.
std::string JsonString(absl::string_view s);

// A number, or null.
std::string JsonNumber(std::optional<int64_t> v);

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_JSON_H_
