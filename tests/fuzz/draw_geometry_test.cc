// Draws for pixel cases (fuzz/generate/draw_geometry.h): every triangle it
// makes clears the margin rule, CoverAll covers every framebuffer, draws
// keep to the policy's invocation bound, and helper lanes are found.
#include "fuzz/generate/draw_geometry.h"

#include <cstdint>

#include "fuzz/generate/choices.h"
#include "fuzz/generate/policy.h"
#include "gtest/gtest.h"
#include "isa/case_file.h"
#include "isa/raster.h"

namespace atomfuzz::fuzz {
namespace {

constexpr int32_t kPixel = isa::kSubpixelsPerPixel;

isa::Draw Framebuffer(uint32_t w, uint32_t h, uint32_t samples) {
  isa::Draw d;
  d.width = w;
  d.height = h;
  d.samples = samples;
  return d;
}

isa::Triangle Tri(int32_t ax, int32_t ay, int32_t bx, int32_t by, int32_t cx,
                  int32_t cy) {
  isa::Triangle t;
  t.v = {{{ax, ay}, {bx, by}, {cx, cy}}};
  return t;
}

TEST(DrawGeometryTest, CoverAllCoversEveryFramebufferClearly) {
  for (uint32_t samples : {1u, 4u}) {
    for (uint32_t w : {1u, 2u, 7u, 16u, 33u, 64u}) {
      for (uint32_t h : {1u, 5u, 64u}) {
        isa::Draw d = Framebuffer(w, h, samples);
        d.triangles = {CoverAll()};
        EXPECT_FALSE(isa::ClearMarginProblem(d).has_value()) << w << "x" << h;
        const auto covered = isa::Rasterize(d);
        ASSERT_EQ(covered.size(), size_t{w} * h) << w << "x" << h;
        for (const isa::PixelCoverage& p : covered) {
          EXPECT_EQ(p.samples, samples == 4 ? 0xf : 0x1);
        }
      }
    }
  }
}

TEST(DrawGeometryTest, PickedTrianglesClearTheMargins) {
  const PixelPolicy policy;
  SeededChoices choices(3);
  int partial = 0;
  for (int i = 0; i < 2000; ++i) {
    const isa::Draw d =
        Framebuffer(1 + static_cast<uint32_t>(choices.Below(16)),
                    1 + static_cast<uint32_t>(choices.Below(16)),
                    choices.Below(2) == 0 ? 1 : 4);
    const isa::Triangle t = PickTriangle(d, policy, nullptr, choices);
    ASSERT_TRUE(TriangleClear(d, t)) << i;
    partial += !(t == CoverAll());
  }
  // Nudging nearly always finds a clear triangle before giving up.
  EXPECT_GT(partial, 1800);
}

TEST(DrawGeometryTest, NudgingLeavesAClearTriangleAlone) {
  const isa::Draw d = Framebuffer(4, 4, 4);
  // A sample of pixel (0, 0) lies on the edge x = 0.375.
  isa::Triangle bad = Tri(96, 0, 3 * kPixel, 0, 96, 3 * kPixel);
  EXPECT_FALSE(TriangleClear(d, bad));
  isa::Triangle good = Tri(0, 0, 3 * kPixel, 0, 0, 3 * kPixel);
  ASSERT_TRUE(TriangleClear(d, good));
  SeededChoices choices(1);
  const isa::Triangle before = good;
  EXPECT_TRUE(NudgeUntilClear(d, good, 8, choices));
  EXPECT_EQ(good, before);
  EXPECT_FALSE(NudgeUntilClear(d, bad, 0, choices));
}

TEST(DrawGeometryTest, DrawsKeepToTheInvocationBound) {
  const PixelPolicy policy;
  SeededChoices choices(9);
  for (int i = 0; i < 1000; ++i) {
    const isa::Draw d = PickDraw(policy, choices);
    isa::Case c;
    c.shader.stage = isa::Stage::kPixel;
    c.draw = d;
    ASSERT_LE(isa::ThreadCount(c), policy.max_invocations) << i;
    ASSERT_FALSE(isa::ClearMarginProblem(d).has_value()) << i;
    ASSERT_GE(d.triangles.size(), 1u);
    ASSERT_LE(d.triangles.size(), policy.max_triangles);
  }
}

TEST(DrawGeometryTest, FindsHelperLanes) {
  isa::Draw full = Framebuffer(4, 4, 1);
  full.triangles = {CoverAll()};
  EXPECT_FALSE(HasHelperLanes(full));
  isa::Draw odd = Framebuffer(3, 4, 1);
  odd.triangles = {CoverAll()};
  EXPECT_TRUE(HasHelperLanes(odd));  // column 3 lies past the edge
  isa::Draw corner = Framebuffer(4, 4, 1);
  corner.triangles = {Tri(0, 0, 3 * kPixel, 0, 0, 3 * kPixel)};
  EXPECT_TRUE(HasHelperLanes(corner));
}

}  // namespace
}  // namespace atomfuzz::fuzz
