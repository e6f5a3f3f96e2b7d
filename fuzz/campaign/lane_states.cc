#include "fuzz/campaign/lane_states.h"

#include <array>

#include "absl/container/flat_hash_set.h"
#include "isa/raster.h"
#include "isa/stages.h"

namespace atomfuzz::fuzz {
namespace {

// An invocation: primitive, x, y, sample (0 at pixel frequency).
using Lane = std::array<uint32_t, 4>;
// An invocation's run of one atomic: the lane, instruction, occurrence.
using Run = std::array<uint32_t, 6>;

}  // namespace

void EventLaneStates(const isa::Case& c, const isa::Outcome& outcome,
                     std::vector<LaneState>& states) {
  states.assign(outcome.trace.size(), LaneState::kLive);
  if (!c.shader.pixel() || outcome.trace.empty()) return;
  const bool per_sample = isa::RunsPerSample(c.shader);
  absl::flat_hash_set<Lane> covered;
  for (const isa::PixelCoverage& p : isa::Rasterize(c.draw)) {
    for (uint32_t s = 0; s < (per_sample ? 4u : 1u); ++s) {
      if (!per_sample || (p.samples >> s & 1) != 0) {
        covered.insert({p.primitive, p.x, p.y, s});
      }
    }
  }
  absl::flat_hash_set<Run> runs;
  for (const isa::AtomicEvent& e : outcome.trace) {
    runs.insert({e.group[0], e.thread[0], e.thread[1], e.thread[2],
                 e.instruction, e.occurrence});
  }
  for (size_t i = 0; i < outcome.trace.size(); ++i) {
    const isa::AtomicEvent& e = outcome.trace[i];
    bool helper = false, missing = false;
    for (uint32_t k = 0; k < 4; ++k) {
      const Lane lane = {e.group[0], (e.thread[0] & ~1u) + (k & 1),
                         (e.thread[1] & ~1u) + (k >> 1), e.thread[2]};
      if (!covered.contains(lane)) {
        helper = true;
      } else if (!runs.contains(Run{lane[0], lane[1], lane[2], lane[3],
                                    e.instruction, e.occurrence})) {
        missing = true;
      }
    }
    states[i] = missing  ? LaneState::kDiscarded
                : helper ? LaneState::kHelper
                         : LaneState::kLive;
  }
}

}  // namespace atomfuzz::fuzz
