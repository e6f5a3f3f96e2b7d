// Every ABSL_FLAG of the atomfuzz command is defined in flags.cc and declared
// here; subcommands read them through plain option structs.
#ifndef ATOMFUZZ_CLI_FLAGS_H_
#define ATOMFUZZ_CLI_FLAGS_H_

#include "absl/flags/declare.h"

ABSL_DECLARE_FLAG(bool, check);
ABSL_DECLARE_FLAG(bool, in_place);
ABSL_DECLARE_FLAG(bool, validate);
ABSL_DECLARE_FLAG(bool, quiet);

#endif  // ATOMFUZZ_CLI_FLAGS_H_
