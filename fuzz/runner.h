// Runs a case on a target chosen by name. Only fuzz/ (and cli over it) puts
// the oracle and the targets side by side; until the targets issue lands the
// oracle is the one target.
#ifndef ATOMFUZZ_FUZZ_RUNNER_H_
#define ATOMFUZZ_FUZZ_RUNNER_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "isa/case_file.h"
#include "isa/outcome.h"
#include "oracle/schedule.h"

namespace atomfuzz::fuzz {

struct RunOptions {
  std::string target = "oracle";
  oracle::Schedule schedule;  // for the oracle
};

std::vector<std::string> TargetNames();
// InvalidArgument for an unknown target or a case the target cannot take.
absl::StatusOr<isa::Outcome> RunCase(const isa::Case& c, const RunOptions& o);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_RUNNER_H_
