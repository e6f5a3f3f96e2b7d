#include "cli/flags.h"

#include <string>

#include "absl/flags/flag.h"
#include "absl/strings/str_split.h"

#define ATOMFUZZ_FLAG(type, name, default_value, help, commands) \
  ABSL_FLAG(type, name, default_value, help);
#include "cli/flags.def"

namespace atomfuzz::cli {
namespace {

constexpr FlagRow kFlags[] = {
#define ATOMFUZZ_FLAG(type, name, default_value, help, commands) \
  {#name, commands, false},
#define ATOMFUZZ_TARGET_FLAG(type, name, default_value, help, commands) \
  {#name, commands, true},
#include "cli/flags.def"
};

}  // namespace

std::span<const FlagRow> AllFlags() { return kFlags; }

bool TakenBy(const FlagRow& row, absl::string_view command) {
  for (absl::string_view c : absl::StrSplit(row.commands, ' ')) {
    if (c == command) return true;
  }
  return false;
}

}  // namespace atomfuzz::cli
