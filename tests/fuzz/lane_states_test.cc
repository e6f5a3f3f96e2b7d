// The state of a pixel atomic's quad (fuzz/campaign/lane_states.h), and
// the features a pixel run adds (campaign_stats.h): past the compute ones,
// one per lane state.
#include "fuzz/campaign/lane_states.h"

#include <memory>
#include <string>
#include <vector>

#include "fuzz/campaign/campaign_stats.h"
#include "gtest/gtest.h"
#include "isa/case_file.h"
#include "isa/outcome.h"
#include "oracle/interpreter.h"

namespace atomfuzz::fuzz {
namespace {

// Triangle 0 covers pixels (0, 0), (1, 0) and (0, 1): (1, 1) is a helper.
// Triangle 1 covers all 16 pixels.
isa::Case TwoTriangles(const std::string& code) {
  absl::StatusOr<isa::Case> c = isa::ParseCase(
      "[draw]\nframebuffer 4, 4\nsamples 1\n"
      "triangle 0 0, 2.5 0, 0 2.5\n"
      "triangle -64 -64, 128 32, 32 128\n"
      "[uav u0]\nkind raw\nwords 16\n"
      "[shader]\nps_5_0\ndcl_uav_raw u0\n"
      "dcl_input_ps_siv linear noperspective v0.xy, position\n"
      "dcl_input_ps_sgv constant v1.x, primitive_id\n"
      "dcl_temps 1\n" +
      code + "ret\n");
  EXPECT_TRUE(c.ok()) << c.status();
  return c.ok() ? *c : isa::Case{};
}

isa::AtomicEvent Event(uint32_t primitive, uint32_t x, uint32_t y) {
  isa::AtomicEvent e;
  e.group = {primitive, 0, 0};
  e.thread = {x, y, 0};
  e.instruction = 4;
  return e;
}

TEST(LaneStatesTest, FullQuadsHelpersAndMissingLanes) {
  const isa::Case c = TwoTriangles("atomic_iadd u0, l(0), l(1)\n");
  isa::Outcome o;
  o.has_trace = true;
  // Triangle 0's quad: three live lanes, a helper.
  o.trace = {Event(0, 0, 0), Event(0, 1, 0), Event(0, 0, 1)};
  // Triangle 1: quad (0..1, 0..1) whole; quad (2..3, 0..1) lacks (3, 1).
  for (uint32_t k = 0; k < 4; ++k) o.trace.push_back(Event(1, k & 1, k >> 1));
  for (uint32_t k = 0; k < 3; ++k) {
    o.trace.push_back(Event(1, 2 + (k & 1), k >> 1));
  }
  std::vector<LaneState> states;
  EventLaneStates(c, o, states);
  const std::vector<LaneState> want = {
      LaneState::kHelper,   LaneState::kHelper,    LaneState::kHelper,
      LaneState::kLive,     LaneState::kLive,      LaneState::kLive,
      LaneState::kLive,     LaneState::kDiscarded, LaneState::kDiscarded,
      LaneState::kDiscarded};
  EXPECT_EQ(states, want);
}

// On the oracle's own trace: a discard of pixel (1, 0) of triangle 1
// leaves its quad's atomics beside a discarded lane.
TEST(LaneStatesTest, TheOraclesTraceOfADiscard) {
  const isa::Case c = TwoTriangles(
      "ftou r0.xy, v0.xyxx\n"
      "iadd r0.x, r0.x, r0.y\n"
      "ieq r0.x, r0.x, l(1)\n"  // pixels (1, 0) and (0, 1)
      "discard_nz r0.x\n"
      "atomic_iadd u0, l(0), l(1)\n");
  absl::StatusOr<isa::Outcome> o = oracle::Interpret(c);
  ASSERT_TRUE(o.ok()) << o.status();
  std::vector<LaneState> states;
  EventLaneStates(c, *o, states);
  ASSERT_EQ(states.size(), o->trace.size());
  int discarded = 0, live = 0;
  for (size_t i = 0; i < states.size(); ++i) {
    const isa::AtomicEvent& e = o->trace[i];
    const bool first_quad = e.thread[0] < 2 && e.thread[1] < 2;
    if (e.group[0] == 1 && first_quad) {
      EXPECT_EQ(states[i], LaneState::kDiscarded);
      ++discarded;
    } else if (e.group[0] == 1) {
      EXPECT_EQ(states[i], LaneState::kLive);
      ++live;
    } else {
      EXPECT_EQ(states[i], LaneState::kDiscarded);  // (0, 0) alone is left
    }
  }
  EXPECT_EQ(discarded, 2);
  EXPECT_EQ(live, 12);
}

TEST(LaneStatesTest, PixelFeaturesFollowTheComputeOnes) {
  const isa::Case c = TwoTriangles("atomic_iadd u0, l(0), l(1)\n");
  isa::Outcome o;
  o.has_trace = true;
  o.trace = {Event(1, 0, 0), Event(1, 1, 0), Event(1, 0, 1), Event(1, 1, 1)};
  auto counters = std::make_unique<WorkerCounters>();
  std::vector<int> features;
  CountCoverage(c, o, *counters, features);
  const int op = static_cast<int>(isa::Op::kAtomicIAdd) -
                 static_cast<int>(isa::Op::kAtomicAnd);
  const int cell = (op * isa::kTargetKindCount +
                    static_cast<int>(isa::TargetKind::kUavRaw)) *
                       isa::kAddressClassCount +
                   static_cast<int>(isa::AddressClass::kInBounds);
  const int alias = 2;  // four atomics on word 0
  EXPECT_EQ(features,
            (std::vector<int>{kComputeFeatureCount +
                              (cell * kAliasBuckets + alias) * kLaneStateCount +
                              static_cast<int>(LaneState::kLive)}));
  o.trace.pop_back();  // (1, 1) made none: its neighbours' state changes
  CountCoverage(c, o, *counters, features);
  EXPECT_EQ(features,
            (std::vector<int>{kComputeFeatureCount +
                              (cell * kAliasBuckets + alias) * kLaneStateCount +
                              static_cast<int>(LaneState::kDiscarded)}));
}

}  // namespace
}  // namespace atomfuzz::fuzz
