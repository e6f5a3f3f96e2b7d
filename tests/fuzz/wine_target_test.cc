// The Wine targets end to end (Wine, Xvfb and the mingw-built runner; each
// test skips, saying what is missing, where they are absent): a case runs
// through Direct3D 11 on both renderers and is judged with its returned
// values, and a pixel case is drawn; a shader wined3d fails to translate is
// invalid-code, not wrong values; what D3D11 cannot set up is rejected with
// the reason.
#include <memory>
#include <string>

#include "absl/strings/match.h"
#include "fuzz/differential.h"
#include "fuzz/runner.h"
#include "gtest/gtest.h"
#include "tests/fuzz/corpus_files.h"

namespace atomfuzz::fuzz {
namespace {

struct WineRun {
  RunResult result;
  bool skipped = false;
};

WineRun On(const std::string& target, const std::string& file) {
  RunOptions options;
  options.target = target;
  absl::StatusOr<std::unique_ptr<targets::Target>> t = MakeTarget(options);
  EXPECT_TRUE(t.ok()) << t.status();
  absl::StatusOr<isa::Case> c = testutil::LoadCorpusCase(file);
  EXPECT_TRUE(c.ok()) << c.status();
  WineRun r;
  if (!t.ok() || !c.ok()) return r;
  r.result = RunOne(*c, **t);
  r.skipped = r.result.kind == RunKind::kTargetFailed &&
              !absl::StrContains(r.result.message, "D3D11 on Wine");
  return r;
}

// How many events of the trace carry a returned value.
int ReturnedValues(const isa::Outcome& o) {
  int returned = 0;
  for (const isa::AtomicEvent& e : o.trace) returned += e.returned.has_value();
  return returned;
}

#define SKIP_WITHOUT_WINE(run)                            \
  if ((run).skipped) {                                    \
    GTEST_SKIP() << "the Wine target cannot start here: " \
                 << (run).result.message;                 \
  }

class WineTarget : public ::testing::TestWithParam<const char*> {};

TEST_P(WineTarget, ACaseIsJudgedWithItsReturnedValues) {
  const WineRun r = On(GetParam(), "corpus/seed/all-atomics-tex1d.case");
  SKIP_WITHOUT_WINE(r);
  ASSERT_EQ(r.result.kind, RunKind::kJudged) << r.result.message;
  EXPECT_EQ(r.result.verdict.kind, oracle::Verdict::Kind::kAllowed)
      << r.result.verdict.Summary();
  ASSERT_TRUE(r.result.outcome->has_trace) << r.result.outcome->message;
  EXPECT_GT(ReturnedValues(*r.result.outcome), 0);
}

TEST_P(WineTarget, WhatD3D11CannotSetUpIsRejectedWithTheReason) {
  // An initial counter of 0xffffffff means "keep" to D3D11.
  WineRun r = On(GetParam(), "corpus/seed/e36-alloc-at-max-wraps.case");
  SKIP_WITHOUT_WINE(r);
  ASSERT_TRUE(r.result.outcome.has_value()) << r.result.message;
  EXPECT_EQ(r.result.outcome->status, isa::RunStatus::kRejected);
  EXPECT_TRUE(absl::StrContains(r.result.outcome->message, "0xffffffff"))
      << r.result.outcome->message;
  // wined3d has no umad.
  r = On(GetParam(), "corpus/regress/judge-store-races-atomics-tgsm-xor.case");
  ASSERT_TRUE(r.result.outcome.has_value()) << r.result.message;
  EXPECT_EQ(r.result.outcome->status, isa::RunStatus::kRejected);
}

// A group count of 0 runs no thread, so the log has no record: not a
// dispatch that did nothing by mistake.
TEST_P(WineTarget, ADispatchOfNoGroupIsAllowed) {
  const WineRun r = On(GetParam(), "corpus/regress/dispatch-of-no-group.case");
  SKIP_WITHOUT_WINE(r);
  ASSERT_EQ(r.result.kind, RunKind::kJudged) << r.result.message;
  EXPECT_EQ(r.result.verdict.kind, oracle::Verdict::Kind::kAllowed)
      << r.result.verdict.Summary();
}

// A ps_5_0 case is drawn (runner_wire.h): its atomics before and after a
// discard are judged with their returned values.
TEST_P(WineTarget, APixelCaseIsDrawnAndJudgedWithItsReturnedValues) {
  const WineRun r =
      On(GetParam(), "corpus/spec/p05-atomics-before-and-after-discard.case");
  SKIP_WITHOUT_WINE(r);
  ASSERT_EQ(r.result.kind, RunKind::kJudged) << r.result.message;
  EXPECT_EQ(r.result.verdict.kind, oracle::Verdict::Kind::kAllowed)
      << r.result.verdict.Summary();
  ASSERT_TRUE(r.result.outcome->has_trace) << r.result.outcome->message;
  EXPECT_GT(ReturnedValues(*r.result.outcome), 0);
}

// 4 samples with no render target need ForcedSampleCount, under which
// D3D11 lets no shader run per sample: refused before anything is drawn.
TEST_P(WineTarget, APerSampleDrawOfFourSamplesIsRejectedWithTheReason) {
  const WineRun r = On(GetParam(), "corpus/spec/p03-per-sample.case");
  ASSERT_TRUE(r.result.outcome.has_value()) << r.result.message;
  EXPECT_EQ(r.result.outcome->status, isa::RunStatus::kRejected);
  EXPECT_TRUE(absl::StrContains(r.result.outcome->message, "ForcedSampleCount"))
      << r.result.outcome->message;
}

INSTANTIATE_TEST_SUITE_P(Renderers, WineTarget,
                         ::testing::Values("wine-d3d11-gl", "wine-d3d11-vk"),
                         [](const auto& info) {
                           return std::string(info.param).substr(11);
                         });

// GL: a constant g# address past the end makes wined3d's GLSL fail to
// compile ("array index must be < 4"); D3D11 hears nothing and the
// dispatch does nothing. The trace log's canary tells.
TEST(WineTargetGl, AShaderThatFailedToTranslateIsInvalidCode) {
  const WineRun r =
      On("wine-d3d11-gl", "corpus/spec/e21-tgsm-oob-poisons-all.case");
  SKIP_WITHOUT_WINE(r);
  ASSERT_TRUE(r.result.outcome.has_value()) << r.result.message;
  EXPECT_EQ(r.result.outcome->status, isa::RunStatus::kInvalidCode)
      << r.result.outcome->message;
  EXPECT_TRUE(absl::StrContains(r.result.outcome->message,
                                "error: array index must be < 4"))
      << r.result.outcome->message;
}

}  // namespace
}  // namespace atomfuzz::fuzz
