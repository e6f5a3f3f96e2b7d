// The fast target's lane loops and reused buffers: ALU results written in
// place over blocks of four lanes and a tail, and a wave's registers,
// masks and constants reused by the next, wider or narrower, case.
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "isa/case_file.h"
#include "targets/fast/fast_target.h"

namespace atomfuzz::targets {
namespace {

std::unique_ptr<Target> Fast() {
  TargetOptions options;
  options.deterministic = true;
  return *fast::CreateFastTarget(options);
}

// `lanes` threads in one group; thread t stores 2 * (t * t + K) to word t,
// through destinations that are also sources (r0.x = r0.x * r0.x + K).
isa::Case Squares(uint32_t lanes, uint32_t k) {
  const std::string text = absl::StrReplaceAll(
      R"([dispatch]
groups 1, 1, 1

[uav u0]
kind raw
words LANES

[shader]
cs_5_0
dcl_uav_raw u0
dcl_input vThreadIDInGroupFlattened
dcl_temps 2
dcl_thread_group LANES, 1, 1
mov r0.x, vThreadIDInGroupFlattened.x
imad r0.x, r0.x, r0.x, l(K)
iadd r0.x, r0.x, r0.x
ishl r1.x, vThreadIDInGroupFlattened.x, l(2)
store_raw u0.x, r1.x, r0.x
ret
)",
      {{"LANES", absl::StrCat(lanes)}, {"K", absl::StrCat(k)}});
  absl::StatusOr<isa::Case> c = isa::ParseCase(text);
  EXPECT_TRUE(c.ok()) << c.status();
  return *c;
}

void ExpectSquares(Target& target, uint32_t lanes, uint32_t k) {
  absl::StatusOr<isa::Outcome> out = target.Run(Squares(lanes, k));
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->status, isa::RunStatus::kOk) << out->message;
  ASSERT_EQ(out->uavs.size(), 1u);
  ASSERT_EQ(out->uavs[0].words.size(), lanes);
  for (uint32_t t = 0; t < lanes; ++t) {
    EXPECT_EQ(out->uavs[0].words[t], 2 * (t * t + k))
        << lanes << " lanes, thread " << t;
  }
}

TEST(FastLanes, InPlaceResultsOverBlocksAndTail) {
  std::unique_ptr<Target> fast = Fast();
  for (uint32_t lanes : {1u, 3u, 4u, 7u, 8u, 13u})
    ExpectSquares(*fast, lanes, 3);
}

TEST(FastLanes, ReusedBuffersServeWiderAndNarrowerCases) {
  std::unique_ptr<Target> fast = Fast();
  // Each case's constant differs: a stale constant slot would show.
  ExpectSquares(*fast, 13, 5);
  ExpectSquares(*fast, 2, 7);
  ExpectSquares(*fast, 9, 11);
  ExpectSquares(*fast, 9, 12);
  ExpectSquares(*fast, 1, 0);
}

}  // namespace
}  // namespace atomfuzz::targets
