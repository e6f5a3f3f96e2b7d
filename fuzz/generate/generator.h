// Builds random valid cases from a stream of choices, steered by a policy
// (fuzz/generate/policy.h). The generator holds no weight of its own (YARPGen's
// split): every probability and limit comes from the policy, so policies can
// aim at edge cases without touching this code. Every case it returns passes
// isa::Validate.
#ifndef ATOMFUZZ_FUZZ_GENERATE_GENERATOR_H_
#define ATOMFUZZ_FUZZ_GENERATE_GENERATOR_H_

#include "fuzz/generate/choices.h"
#include "fuzz/generate/policy.h"
#include "isa/case_file.h"

namespace atomfuzz::fuzz {

isa::Case GenerateCase(Choices& choices, const Policy& policy);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_GENERATE_GENERATOR_H_
