// Reading case files for subcommands: parse (and optionally validate),
// printing every diagnostic to stderr.
#ifndef ATOMFUZZ_CLI_LOAD_CASE_H_
#define ATOMFUZZ_CLI_LOAD_CASE_H_

#include <optional>
#include <string>

#include "fuzz/runner.h"
#include "isa/case_file.h"

namespace atomfuzz::cli {

enum class LoadResult { kOk, kUnreadable, kSyntaxError, kInvalid };

// `text` receives the file's bytes (for canonical-form comparison).
LoadResult LoadCase(const std::string& path, bool validate, isa::Case& out,
                    std::string* text = nullptr);

// For --inject=list: prints the injected bugs' names and returns true.
bool PrintInjectionsIfAsked(const std::string& inject);

// The flags that belong to targets (flags.def's ATOMFUZZ_TARGET_FLAG) that
// the command line set, by name: the target's row decides if it takes them.
targets::TargetFlags TargetFlagsGiven();

// The flags every command that runs a target shares (--target, --timeout,
// and the targets' own), copied into `run`. Returns true, after printing
// the injection names, when --inject=list asks only for them.
bool TargetFlagsInto(fuzz::RunOptions& run);

// The target the flags name (--target, --schedule, --threads,
// --deterministic, --inject). Returns nullptr with `exit_code` set when the
// command should stop: 2 after a message for a bad value, 0 after printing
// the list for --inject=list.
std::unique_ptr<targets::Target> TargetFromFlags(const char* command,
                                                 int& exit_code);

}  // namespace atomfuzz::cli

#endif  // ATOMFUZZ_CLI_LOAD_CASE_H_
