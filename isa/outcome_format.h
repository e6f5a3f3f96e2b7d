// Renders an Outcome for people (text) and tools (JSON). Undefined words
// print as ???????? in text and null in JSON.
#ifndef ATOMFUZZ_ISA_OUTCOME_FORMAT_H_
#define ATOMFUZZ_ISA_OUTCOME_FORMAT_H_

#include <array>
#include <cstdint>
#include <string>

#include "isa/outcome.h"
#include "isa/program.h"

namespace atomfuzz::isa {

// `program` names the atomics of the trace; with `trace` false the trace is
// left out.
std::string OutcomeText(const Outcome& o, const Program& program, bool trace);
std::string OutcomeJson(const Outcome& o, bool trace);

// Who ran an atomic, as people read it: "group (1,0,0) thread (3,0,0)" in
// cs, "primitive 0 pixel (3,2) sample 1" in ps (group.x and thread hold
// them there; the sample is left out at pixel frequency, where it is 0).
std::string InvocationName(const Program& program,
                           const std::array<uint32_t, 3>& group,
                           const std::array<uint32_t, 3>& thread);

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_OUTCOME_FORMAT_H_
