// What a flag's value may be beyond its type: abseil parses "nan", "inf",
// "1e308" and "-3" as numbers, and "--out=" as an empty path, and each led
// a command somewhere no user meant (a --timeout=nan watchdog killed a
// correct target; issue 21). One rule per flag, checked at parse time.
#ifndef ATOMFUZZ_CLI_FLAG_VALUES_H_
#define ATOMFUZZ_CLI_FLAG_VALUES_H_

#include <string>

#include "absl/strings/string_view.h"

namespace atomfuzz::cli {

// Why the value just parsed into flag `name` cannot be meant ("expected a
// number of seconds in [0, 1e7]"), or "" when it can.
std::string FlagValueProblem(absl::string_view name);

}  // namespace atomfuzz::cli

#endif  // ATOMFUZZ_CLI_FLAG_VALUES_H_
