#include "fuzz/runner.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "oracle/interpreter.h"

namespace atomfuzz::fuzz {

std::vector<std::string> TargetNames() { return {"oracle"}; }

absl::StatusOr<isa::Outcome> RunCase(const isa::Case& c, const RunOptions& o) {
  if (o.target == "oracle") {
    oracle::InterpretOptions options;
    options.schedule = o.schedule;
    return oracle::Interpret(c, options);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown target '", o.target, "' (known: ",
                   absl::StrJoin(TargetNames(), ", "), ")"));
}

}  // namespace atomfuzz::fuzz
