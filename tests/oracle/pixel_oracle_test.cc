// The oracle's pixel stage (docs/pixel-stage.md): quads and helpers,
// derivatives only in quad-uniform flow, SV_Position per sample, and the
// same outcome under any schedule.
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "isa/case_file.h"
#include "oracle/interpreter.h"
#include "oracle/pixel_quads.h"

namespace atomfuzz::oracle {
namespace {

isa::Case MustParse(const std::string& text) {
  absl::StatusOr<isa::Case> c = isa::ParseCase(text, "t.case");
  EXPECT_TRUE(c.ok()) << c.status();
  return c.ok() ? *c : isa::Case{};
}

// A 4x4 framebuffer, one triangle over (x + y < 3.875), u0 of 32 words,
// and `body` after v0 = SV_Position, r0.xy = the pixel, r0.w = its word.
isa::Case Quad(const std::string& body, uint32_t samples = 1,
               const std::string& extra_decl = "") {
  return MustParse(absl::StrCat(
      "[draw]\nframebuffer 4, 4\nsamples ", samples,
      "\ntriangle 0.25 0.25, 3.625 0.25, 0.25 3.625\n[uav u0]\nkind raw\n"
      "words 32\n[shader]\nps_5_0\ndcl_uav_raw u0\n"
      "dcl_input_ps_siv linear noperspective v0.xy, position\n",
      extra_decl,
      "dcl_temps 3\nftou r0.xy, v0.xyxx\nimad r0.z, r0.y, l(4), r0.x\n"
      "ishl r0.w, r0.z, l(2)\n",
      body, "ret\n"));
}

TEST(PixelOracle, QuadsHaveHelpersWhereCoverageIsPartial) {
  const isa::Case c = Quad("");
  const std::vector<PixelQuad> quads = PixelQuads(c);
  // Centres with x + y + 1 < 3.875: row 0 x 0-2, row 1 x 0-1, row 2 x 0:
  // 6 pixels in 3 quads (the one at (2,2) has none, so it does not exist).
  ASSERT_EQ(quads.size(), 3u);
  int covered = 0, helpers = 0;
  for (const PixelQuad& q : quads) {
    for (const PixelLane& l : q) (l.covered ? covered : helpers)++;
  }
  EXPECT_EQ(covered, 6);
  EXPECT_EQ(helpers, 6);
}

TEST(PixelOracle, OnlyLiveLanesWrite) {
  absl::StatusOr<isa::Outcome> o =
      Interpret(Quad("atomic_iadd u0, r0.w, l(1)\n"));
  ASSERT_TRUE(o.ok()) << o.status();
  std::vector<uint32_t> want(32, 0);
  for (int w : {0, 1, 2, 4, 5, 8}) want[static_cast<size_t>(w)] = 1;
  ASSERT_EQ(o->uavs.size(), 1u);
  EXPECT_EQ(o->uavs[0].words, want);
  EXPECT_EQ(o->trace.size(), 6u);  // no event for a helper
}

TEST(PixelOracle, DerivativesInDivergentFlowAreUndefined) {
  // Column 0 takes the branch, column 1 does not: the quad is split.
  absl::StatusOr<isa::Outcome> o = Interpret(
      Quad("and r1.x, r0.x, l(1)\nif_z r1.x\n  deriv_rtx_fine r2.x, v0.x\n"
           "  store_raw u0.x, r0.w, r2.x\nendif\n"
           "deriv_rtx_fine r2.y, v0.x\niadd r0.w, r0.w, l(64)\n"
           "store_raw u0.x, r0.w, r2.y\n"));
  ASSERT_TRUE(o.ok()) << o.status();
  const isa::UavState& u = o->uavs[0];
  // Word 0 (pixel (0,0), in the branch): undefined; after the branch the
  // quad is together again, and pixel (1,0) stores 1.0 into word 16 + 1.
  EXPECT_FALSE(u.defined[0]);
  EXPECT_TRUE(u.defined[17]);
  EXPECT_EQ(u.words[17], 0x3f800000u);
}

TEST(PixelOracle, PositionPerSampleKeepsItsPixel) {
  // Per sample, SV_Position.xy is the centre or the sample's place; ftou of
  // it is the pixel either way, so the count per pixel is defined.
  absl::StatusOr<isa::Outcome> o =
      Interpret(Quad("atomic_iadd u0, r0.w, l(1)\n", 4,
                     "dcl_input_ps_sgv constant v1.x, sampleIndex\n"));
  ASSERT_TRUE(o.ok()) << o.status();
  const isa::UavState& u = o->uavs[0];
  uint32_t total = 0;
  for (size_t w = 0; w < u.words.size(); ++w) {
    EXPECT_TRUE(u.defined[w]) << w;
    total += u.words[w];
  }
  EXPECT_GT(total, 9u);  // more samples than pixels
}

TEST(PixelOracle, EveryScheduleAgrees) {
  const isa::Case c = Quad(
      "imm_atomic_iadd r1.x, u0, l(60), l(1)\nieq r1.y, r0.x, l(1)\n"
      "discard_nz r1.y\nderiv_rty_coarse r1.z, v0.y\nftoi r1.z, r1.z\n"
      "atomic_iadd u0, r0.w, r1.z\n");
  absl::StatusOr<isa::Outcome> canonical = Interpret(c);
  ASSERT_TRUE(canonical.ok()) << canonical.status();
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    InterpretOptions options;
    options.schedule = Schedule::Random(seed);
    absl::StatusOr<isa::Outcome> o = Interpret(c, options);
    ASSERT_TRUE(o.ok()) << o.status();
    EXPECT_EQ(o->uavs[0].defined, canonical->uavs[0].defined) << seed;
    for (size_t w = 0; w + 1 < o->uavs[0].words.size(); ++w) {
      EXPECT_EQ(o->uavs[0].words[w], canonical->uavs[0].words[w]) << w;
    }
  }
}

}  // namespace
}  // namespace atomfuzz::oracle
