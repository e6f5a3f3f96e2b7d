// Helpers for the fast target's tests: cases from text, runs on "fast" or
// "oracle", and comparisons with the oracle and its judge.
#ifndef ATOMFUZZ_TESTS_FUZZ_FAST_TESTING_H_
#define ATOMFUZZ_TESTS_FUZZ_FAST_TESTING_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "isa/case_file.h"
#include "isa/outcome.h"

namespace atomfuzz::fuzz::testutil {

// Parses and validates (failures are test failures).
isa::Case Parse(const std::string& text);

// Options of one fast run.
struct Fast {
  bool deterministic = true;
  int threads = 0;
  uint64_t max_steps = 1u << 20;
  uint64_t max_steps_per_thread = UINT64_MAX;
  std::string inject;
};

// The modes every result must hold in: one worker, and all cores.
inline const Fast kModes[] = {{.deterministic = true},
                              {.deterministic = false, .threads = 0}};

// Runs on `target` ("fast" or "oracle") with the options of `f`.
isa::Outcome RunOn(const isa::Case& c, const std::string& target,
                   const Fast& f = {});
// Runs on "fast" and expects RunStatus::kOk.
isa::Outcome RunFast(const isa::Case& c, const Fast& f = {});

// The judge calls the outcome allowed.
void ExpectAllowed(const isa::Case& c, const isa::Outcome& o);
// Words of `fast` equal the oracle's wherever the oracle defines them; the
// oracle must define at least `min_defined` words in all (so a test cannot
// pass by comparing nothing).
void ExpectMatchesOracle(const isa::Outcome& fast, const isa::Outcome& oracle,
                         size_t min_defined);

// A case: `groups` groups of `threads` threads, UAV sections, declarations
// and a body (a final ret is added).
std::string CaseText(int groups, int threads, const std::string& uavs,
                     const std::string& decls, const std::string& body);
// A [uav uN] section of a raw view; `data` as in the case format.
std::string RawUav(int slot, int words, const std::string& data = "");
std::vector<uint32_t> Ramp(uint32_t start, size_t n);
// Index in Program::instructions of the nth instruction with this mnemonic.
uint32_t InstructionIndex(const isa::Case& c, absl::string_view mnemonic,
                          int nth = 0);

}  // namespace atomfuzz::fuzz::testutil

#endif  // ATOMFUZZ_TESTS_FUZZ_FAST_TESTING_H_
