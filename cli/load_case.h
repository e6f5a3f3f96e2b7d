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

// --target and --schedule as run options; on a bad value prints
// "atomfuzz COMMAND: --schedule: ..." and returns false.
bool RunOptionsFromFlags(const char* command, fuzz::RunOptions& options);

}  // namespace atomfuzz::cli

#endif  // ATOMFUZZ_CLI_LOAD_CASE_H_
