// Every ABSL_FLAG of the atomfuzz command is defined in flags.cc and declared
// here; subcommands read them through plain option structs.
#ifndef ATOMFUZZ_CLI_FLAGS_H_
#define ATOMFUZZ_CLI_FLAGS_H_

#include <string>

#include "absl/flags/declare.h"

ABSL_DECLARE_FLAG(bool, check);
ABSL_DECLARE_FLAG(bool, in_place);
ABSL_DECLARE_FLAG(bool, validate);
ABSL_DECLARE_FLAG(bool, quiet);
ABSL_DECLARE_FLAG(std::string, target);
ABSL_DECLARE_FLAG(std::string, schedule);
ABSL_DECLARE_FLAG(bool, json);
ABSL_DECLARE_FLAG(bool, trace);
ABSL_DECLARE_FLAG(int, threads);
ABSL_DECLARE_FLAG(bool, deterministic);
ABSL_DECLARE_FLAG(std::string, inject);

#endif  // ATOMFUZZ_CLI_FLAGS_H_
