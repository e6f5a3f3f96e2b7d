#include "oracle/schedule.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"

namespace atomfuzz::oracle {

absl::StatusOr<Schedule> Schedule::Parse(absl::string_view original) {
  absl::string_view text = original;
  if (text == "canonical") return Canonical();
  if (absl::ConsumePrefix(&text, "random:")) {
    uint64_t seed = 0;
    const bool ok = absl::ConsumePrefix(&text, "0x")
                        ? absl::SimpleHexAtoi(text, &seed)
                        : absl::SimpleAtoi(text, &seed);
    if (ok) return Random(seed);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("expected a schedule 'canonical' or 'random:SEED', found '",
                   original, "'"));
}

std::string Schedule::ToString() const {
  if (kind == Kind::kCanonical) return "canonical";
  return absl::StrCat("random:", seed);
}

}  // namespace atomfuzz::oracle
