// The state of a pixel atomic's quad (docs/pixel-stage.md P.1, P.3), read
// off the case and the trace alone, so that coverage can tell an atomic
// beside a helper or a discarded lane from one in a full quad. A trace
// holds only active lanes' atomics; the others' absence is the evidence.
#ifndef ATOMFUZZ_FUZZ_CAMPAIGN_LANE_STATES_H_
#define ATOMFUZZ_FUZZ_CAMPAIGN_LANE_STATES_H_

#include <cstdint>
#include <vector>

#include "isa/case_file.h"
#include "isa/outcome.h"

namespace atomfuzz::fuzz {

enum class LaneState : uint8_t {
  kLive,       // all four lanes of the quad are covered and made it too
  kHelper,     // a lane of the quad is a helper (P.1: not covered)
  kDiscarded,  // a covered lane of the quad did not make the same atomic
               // (the same instruction and occurrence): it was discarded,
               // or took other flow
};
inline constexpr int kLaneStateCount = 3;

// Per event of `outcome.trace`, its quad's state; all kLive for a compute
// case. Pixel events name their invocation as the oracle does: primitive
// in group[0], pixel and sample in thread.
void EventLaneStates(const isa::Case& c, const isa::Outcome& outcome,
                     std::vector<LaneState>& states);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_CAMPAIGN_LANE_STATES_H_
