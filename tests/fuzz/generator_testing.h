// Helpers for the generator's tests (compute and pixel policies): a preset
// by name, the case a seed generates, and what the validator says of it.
// Goldens hash the printed case with the frozen Fnv1a64 of
// fuzz/triage/signature.h.
#ifndef ATOMFUZZ_TESTS_FUZZ_GENERATOR_TESTING_H_
#define ATOMFUZZ_TESTS_FUZZ_GENERATOR_TESTING_H_

#include <cstdint>
#include <string>

#include "absl/strings/str_format.h"
#include "fuzz/generate/choices.h"
#include "fuzz/generate/generator.h"
#include "fuzz/generate/policy.h"
#include "gtest/gtest.h"
#include "isa/case_file.h"
#include "isa/validator.h"

namespace atomfuzz::fuzz::testutil {

// The preset `name` (a missing one is a test failure).
inline Policy Preset(const std::string& name) {
  absl::StatusOr<Policy> p = PolicyByName(name);
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? *p : Policy{};
}

inline isa::Case FromSeed(uint64_t seed, const Policy& policy) {
  SeededChoices choices(seed);
  return GenerateCase(choices, policy);
}

// "" when valid, else the violations and the case.
inline std::string Problems(const isa::Case& c) {
  const absl::Status s = isa::Validate(c);
  if (s.ok()) return "";
  return absl::StrFormat("%s\n%s", s.message(), isa::PrintCase(c));
}

}  // namespace atomfuzz::fuzz::testutil

#endif  // ATOMFUZZ_TESTS_FUZZ_GENERATOR_TESTING_H_
