// Renders an Outcome for people (text) and tools (JSON). Undefined words
// print as ???????? in text and null in JSON.
#ifndef ATOMFUZZ_ISA_OUTCOME_FORMAT_H_
#define ATOMFUZZ_ISA_OUTCOME_FORMAT_H_

#include <string>

#include "isa/outcome.h"
#include "isa/program.h"

namespace atomfuzz::isa {

// `program` names the atomics of the trace; with `trace` false the trace is
// left out.
std::string OutcomeText(const Outcome& o, const Program& program, bool trace);
std::string OutcomeJson(const Outcome& o, bool trace);

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_OUTCOME_FORMAT_H_
