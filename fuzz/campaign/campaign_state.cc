#include "fuzz/campaign/campaign_state.h"

#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "isa/diagnostics.h"

namespace atomfuzz::fuzz {

std::string PrintCampaignState(const CampaignState& s) {
  return absl::StrFormat(
      "seed %d\ntarget %s\ninject %s\npolicy %s\nnext_index %d\ncases %d\n"
      "divergences %d\nunknown %d\ncrashes %d\ntimeouts %d\nrejected %d\n"
      "errors %d\nelapsed %.3f\n",
      s.seed, s.target, s.inject.empty() ? "-" : s.inject, s.policy,
      s.next_index, s.cases, s.divergences, s.unknown, s.crashes, s.timeouts,
      s.rejected, s.errors, s.elapsed_seconds);
}

absl::StatusOr<CampaignState> ParseCampaignState(absl::string_view text,
                                                 absl::string_view file) {
  CampaignState s;
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty()) continue;
    std::vector<absl::string_view> kv =
        absl::StrSplit(line, absl::MaxSplits(' ', 1));
    auto bad = [&](absl::string_view expected) {
      return absl::InvalidArgumentError(
          absl::StrCat(file, ":", line_number, ": expected ", expected,
                       ", found ", isa::Quote(line)));
    };
    if (kv.size() != 2) return bad("'key value'");
    const absl::string_view key = kv[0], value = kv[1];
    uint64_t* number = nullptr;
    if (key == "seed")
      number = &s.seed;
    else if (key == "next_index")
      number = &s.next_index;
    else if (key == "cases")
      number = &s.cases;
    else if (key == "divergences")
      number = &s.divergences;
    else if (key == "unknown")
      number = &s.unknown;
    else if (key == "crashes")
      number = &s.crashes;
    else if (key == "timeouts")
      number = &s.timeouts;
    else if (key == "rejected")
      number = &s.rejected;
    else if (key == "errors")
      number = &s.errors;
    if (number != nullptr) {
      if (!absl::SimpleAtoi(value, number)) return bad("an unsigned number");
    } else if (key == "elapsed") {
      if (!absl::SimpleAtod(value, &s.elapsed_seconds)) return bad("seconds");
    } else if (key == "target") {
      s.target = std::string(value);
    } else if (key == "inject") {
      s.inject = value == "-" ? "" : std::string(value);
    } else if (key == "policy") {
      s.policy = std::string(value);
    } else {
      return bad(
          "one of seed, target, inject, policy, next_index, cases, "
          "divergences, unknown, crashes, timeouts, rejected, errors, "
          "elapsed");
    }
  }
  if (s.target.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(file, ":", line_number, ": expected a 'target' line"));
  }
  return s;
}

}  // namespace atomfuzz::fuzz
