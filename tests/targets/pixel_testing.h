// Shared by the pixel-stage tests of the targets: the pixel cases under
// tests/targets/pixel_cases/, and one check that an outcome with a trace
// (a GPU run decoded by DecodeTrace) agrees with the oracle.
#ifndef ATOMFUZZ_TESTS_TARGETS_PIXEL_TESTING_H_
#define ATOMFUZZ_TESTS_TARGETS_PIXEL_TESTING_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "isa/case_file.h"
#include "isa/outcome.h"

namespace atomfuzz::targets::testutil {

// "tests/targets/pixel_cases/x.case", ... relative to the project root,
// sorted.
std::vector<std::string> PixelCaseFiles();

// Reads, parses and validates one of them.
absl::StatusOr<isa::Case> LoadPixelCase(const std::string& relative);

// Expects `observed` (kOk, with a trace) to hold every word the oracle
// defines, the oracle's events exactly (group, thread, instruction,
// occurrence), and the judge's "allowed".
void ExpectAgreesWithOracle(const isa::Case& c, const isa::Outcome& observed,
                            const std::string& name);

}  // namespace atomfuzz::targets::testutil

#endif  // ATOMFUZZ_TESTS_TARGETS_PIXEL_TESTING_H_
