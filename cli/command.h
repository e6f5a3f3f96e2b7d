// A subcommand of `atomfuzz`: its name, usage, the flags it accepts, and the
// function that runs it. Exit codes: 0 ok, 1 a check failed, 2 bad input,
// 3 the target or the judge failed.
#ifndef ATOMFUZZ_CLI_COMMAND_H_
#define ATOMFUZZ_CLI_COMMAND_H_

#include <span>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace atomfuzz::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitCheckFailed = 1;
inline constexpr int kExitBadInput = 2;
// The target could not run or the judge failed (fuzz::RunKind): neither the
// input's fault nor a verdict.
inline constexpr int kExitToolFailed = 3;

// The exit code of a library call's failure: bad input for
// InvalidArgument, else the tool failed.
inline int FailureExit(const absl::Status& s) {
  return s.code() == absl::StatusCode::kInvalidArgument ? kExitBadInput
                                                        : kExitToolFailed;
}

struct Command {
  absl::string_view name;
  absl::string_view usage;    // "atomfuzz fmt [--check] FILE..."
  absl::string_view summary;  // one line for `atomfuzz --help`
  int (*run)(const std::vector<std::string>& args);
  // Names of the flags it accepts, filled from cli/flags.def.
  std::vector<absl::string_view> flags = {};
};

std::span<const Command> AllCommands();

// Reads a whole file; on failure prints "FILE: error" and returns false.
bool ReadFile(const std::string& path, std::string& out);
// Writes via a temp file in the same directory and rename().
bool WriteFileAtomically(const std::string& path, absl::string_view text);
// Writes `text` to --out (atomically), or to stdout when it is empty or "-".
int WriteOutput(absl::string_view text);

}  // namespace atomfuzz::cli

#endif  // ATOMFUZZ_CLI_COMMAND_H_
