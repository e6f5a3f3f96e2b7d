#include "cli/flag_values.h"

#include <cmath>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "cli/flags.h"

namespace atomfuzz::cli {
namespace {

// A finite number in [lo, hi] (strictly above lo when `open_low`).
std::string Range(double v, double lo, double hi, bool open_low,
                  absl::string_view what) {
  if (std::isfinite(v) && (open_low ? v > lo : v >= lo) && v <= hi) return "";
  return absl::StrCat("expected ", what, " in ", open_low ? "(" : "[", lo, ", ",
                      hi, "], found ", v);
}

}  // namespace

std::string FlagValueProblem(absl::string_view name) {
  // Seconds: a campaign of a year is a typo; 1e308 overflows absl::Duration.
  constexpr double kMaxSeconds = 1e7;
  if (name == "seconds")
    return Range(absl::GetFlag(FLAGS_seconds), 0, kMaxSeconds, false,
                 "a number of seconds (0: no limit)");
  if (name == "reduce_seconds")
    return Range(absl::GetFlag(FLAGS_reduce_seconds), 0, kMaxSeconds, false,
                 "a number of seconds (0: no reduction)");
  if (name == "save_every")
    return Range(absl::GetFlag(FLAGS_save_every), 0, 86400, true,
                 "a number of seconds");
  if (name == "timeout")
    return Range(absl::GetFlag(FLAGS_timeout), 0, 86400, true,
                 "a number of seconds");
  if (name == "threads")
    return Range(absl::GetFlag(FLAGS_threads), 0, 4096, false,
                 "a number of threads (0: all cores)");
  if (name == "jobs")
    return Range(absl::GetFlag(FLAGS_jobs), 1, 1024, false,
                 "a number of worker processes");
  if (name == "max_attempts") {
    return Range(static_cast<double>(absl::GetFlag(FLAGS_max_attempts)), 1,
                 1e12, false, "a number of attempts");
  }
  // An empty path, target or name means nothing; the default is left out,
  // not given empty.
  const auto empty = [&](const std::string& v) {
    return v.empty() ? absl::StrCat("expected a value, found an empty one")
                     : std::string();
  };
  if (name == "out") return empty(absl::GetFlag(FLAGS_out));
  if (name == "target") return empty(absl::GetFlag(FLAGS_target));
  if (name == "known") return empty(absl::GetFlag(FLAGS_known));
  if (name == "policy") return empty(absl::GetFlag(FLAGS_policy));
  if (name == "schedule") return empty(absl::GetFlag(FLAGS_schedule));
  if (name == "format") return empty(absl::GetFlag(FLAGS_format));
  if (name == "on") return empty(absl::GetFlag(FLAGS_on));
  return "";
}

}  // namespace atomfuzz::cli
