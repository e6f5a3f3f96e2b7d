// The trace instrumentation of ps_5_0 cases, on the oracle: the
// instrumented case leaves the original's memory, its log rebuilds the
// oracle's own trace of the original (keys {primitive}, {x, y, sample}),
// and the judge allows the decoded outcome. Needs no GPU.
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "isa/printer.h"
#include "isa/validator.h"
#include "oracle/interpreter.h"
#include "targets/trace_instrumentation.h"
#include "tests/targets/pixel_testing.h"

namespace atomfuzz::targets {
namespace {

// The oracle's run of the instrumented case, decoded.
isa::Outcome InstrumentedOnTheOracle(const isa::Case& c,
                                     const std::string& name) {
  absl::StatusOr<InstrumentedCase> ic = InstrumentForTrace(c);
  EXPECT_TRUE(ic.ok()) << name << ": " << ic.status();
  if (!ic.ok()) return isa::Outcome::Ended(isa::RunStatus::kRejected, "");
  EXPECT_TRUE(isa::Validate(ic->instrumented).ok())
      << name << ": " << isa::Validate(ic->instrumented) << "\n"
      << isa::Print(ic->instrumented.shader);
  absl::StatusOr<isa::Outcome> run = oracle::Interpret(ic->instrumented);
  EXPECT_TRUE(run.ok()) << name << ": " << run.status();
  if (!run.ok()) return isa::Outcome::Ended(isa::RunStatus::kRejected, "");
  return DecodeTrace(c, ic->layout, *std::move(run));
}

TEST(PixelTrace, RebuildsTheOraclesTraceOfEveryPixelCase) {
  const std::vector<std::string> files = testutil::PixelCaseFiles();
  ASSERT_GE(files.size(), 5u);
  for (const std::string& f : files) {
    absl::StatusOr<isa::Case> c = testutil::LoadPixelCase(f);
    ASSERT_TRUE(c.ok()) << f << ": " << c.status();
    testutil::ExpectAgreesWithOracle(*c, InstrumentedOnTheOracle(*c, f), f);
  }
}

// The one-triangle draw with no SV_Position: the log adds position (never
// SV_SampleIndex, which would make it run per sample, nor SV_PrimitiveID,
// which a single triangle does not need).
TEST(PixelTrace, AddsPositionOnlyWhereItMust) {
  absl::StatusOr<isa::Case> c = isa::ParseCase(R"([draw]
framebuffer 4, 2
samples 4
triangle 0 0, 8.125 0, 0 8.125

[uav u0]
kind raw
words 1

[shader]
ps_5_0
dcl_uav_raw u0
dcl_temps 1
imm_atomic_iadd r0.x, u0, l(0), l(1)
ret
)");
  ASSERT_TRUE(c.ok()) << c.status();
  ASSERT_TRUE(isa::Validate(*c).ok()) << isa::Validate(*c);
  absl::StatusOr<InstrumentedCase> ic = InstrumentForTrace(*c);
  ASSERT_TRUE(ic.ok()) << ic.status();
  const std::string text = isa::Print(ic->instrumented.shader);
  EXPECT_NE(text.find("dcl_input_ps_siv linear noperspective v0.xy, position"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("sampleIndex"), std::string::npos) << text;
  EXPECT_EQ(text.find("primitive_id"), std::string::npos) << text;
  // Pixel frequency: one record per pixel, S = 1.
  EXPECT_EQ(ic->layout.threads, 8u);
  EXPECT_EQ(ic->layout.invocations.samples, 1u);
  testutil::ExpectAgreesWithOracle(*c, InstrumentedOnTheOracle(*c, "alone"),
                                   "alone");
}

// Two triangles, a position the shader declares with .x only: its mask
// grows to .xy, and SV_PrimitiveID comes after it.
TEST(PixelTrace, WidensTheShadersPositionAndAddsThePrimitive) {
  absl::StatusOr<isa::Case> c = isa::ParseCase(R"([draw]
framebuffer 4, 4
samples 1
triangle 0 0, 4.125 0, 0 4.125
triangle 4 4, 0.125 4, 4 0.125

[uav u0]
kind raw
words 4

[shader]
ps_5_0
dcl_uav_raw u0
dcl_input_ps_siv linear noperspective v2.x, position
dcl_temps 1
ftou r0.x, v2.x
ishl r0.x, r0.x, l(2)
atomic_iadd u0, r0.x, l(1)
ret
)");
  ASSERT_TRUE(c.ok()) << c.status();
  ASSERT_TRUE(isa::Validate(*c).ok()) << isa::Validate(*c);
  absl::StatusOr<InstrumentedCase> ic = InstrumentForTrace(*c);
  ASSERT_TRUE(ic.ok()) << ic.status();
  const std::string text = isa::Print(ic->instrumented.shader);
  EXPECT_NE(text.find("v2.xy, position"), std::string::npos) << text;
  EXPECT_NE(text.find("dcl_input_ps_sgv constant v3.x, primitive_id"),
            std::string::npos)
      << text;
  EXPECT_EQ(ic->layout.threads, 2u * 4 * 4);
  testutil::ExpectAgreesWithOracle(*c, InstrumentedOnTheOracle(*c, "widened"),
                                   "widened");
}

// Past v31 there is no register: the added input takes the lowest free one.
TEST(PixelTrace, AnAddedInputFitsBelowV32) {
  absl::StatusOr<isa::Case> c = isa::ParseCase(R"([draw]
framebuffer 2, 2
samples 1
triangle 0 0, 4.125 0, 0 4.125
triangle 2 2, -1.875 2, 2 -1.875

[uav u0]
kind raw
words 1

[shader]
ps_5_0
dcl_uav_raw u0
dcl_input_ps_siv linear noperspective v31.xy, position
dcl_temps 1
imm_atomic_iadd r0.x, u0, l(0), l(1)
ret
)");
  ASSERT_TRUE(c.ok()) << c.status();
  ASSERT_TRUE(isa::Validate(*c).ok()) << isa::Validate(*c);
  absl::StatusOr<InstrumentedCase> ic = InstrumentForTrace(*c);
  ASSERT_TRUE(ic.ok()) << ic.status();
  const std::string text = isa::Print(ic->instrumented.shader);
  EXPECT_NE(text.find("dcl_input_ps_sgv constant v0.x, primitive_id"),
            std::string::npos)
      << text;
  testutil::ExpectAgreesWithOracle(*c, InstrumentedOnTheOracle(*c, "v31"),
                                   "v31");
}

}  // namespace
}  // namespace atomfuzz::targets
