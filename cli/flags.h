// Every ABSL_FLAG of the atomfuzz command is defined in flags.cc and declared
// here; subcommands read them through plain option structs.
#ifndef ATOMFUZZ_CLI_FLAGS_H_
#define ATOMFUZZ_CLI_FLAGS_H_

#include <cstdint>
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
ABSL_DECLARE_FLAG(std::string, vk_device);
ABSL_DECLARE_FLAG(double, seconds);
ABSL_DECLARE_FLAG(uint64_t, runs);
ABSL_DECLARE_FLAG(int, jobs);
ABSL_DECLARE_FLAG(uint64_t, seed);
ABSL_DECLARE_FLAG(std::string, out);
ABSL_DECLARE_FLAG(std::string, policy);
ABSL_DECLARE_FLAG(bool, resume);
ABSL_DECLARE_FLAG(double, timeout);
ABSL_DECLARE_FLAG(double, reduce_seconds);
ABSL_DECLARE_FLAG(int64_t, max_attempts);

#endif  // ATOMFUZZ_CLI_FLAGS_H_
