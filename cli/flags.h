// The abseil flags of the atomfuzz command, declared from the one table
// (flags.def), and what that table says of each: the subcommands that take
// it and whether it belongs to a target.
#ifndef ATOMFUZZ_CLI_FLAGS_H_
#define ATOMFUZZ_CLI_FLAGS_H_

#include <cstdint>
#include <span>
#include <string>

#include "absl/flags/declare.h"
#include "absl/strings/string_view.h"

#define ATOMFUZZ_FLAG(type, name, default_value, help, commands) \
  ABSL_DECLARE_FLAG(type, name);
#include "cli/flags.def"

namespace atomfuzz::cli {

struct FlagRow {
  absl::string_view name;      // as abseil names it: vk_device
  absl::string_view commands;  // "run check judge"
  bool for_target;             // passed on in TargetOptions::flags
};

// The rows of flags.def, in its order.
std::span<const FlagRow> AllFlags();
// Whether `command` takes the flag `row` describes.
bool TakenBy(const FlagRow& row, absl::string_view command);

}  // namespace atomfuzz::cli

#endif  // ATOMFUZZ_CLI_FLAGS_H_
