// The pixel stage's case format, coverage and encoding (docs/pixel-stage.md
// P.1, P.2; docs/case-format.md [draw]).
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "isa/case_file.h"
#include "isa/dxbc.h"
#include "isa/dxbc_container.h"
#include "isa/printer.h"
#include "isa/raster.h"
#include "isa/validator.h"

namespace atomfuzz::isa {
namespace {

constexpr char kPixelCase[] =
    R"(# Two triangles, four samples, a pixel-form expectation.

[draw]
framebuffer 4, 4
samples 4
triangle 0.25 0.25, 3.625 0.25, 0.25 3.625
triangle 1.125 1.25, 4.5 1.25, 4.5 4.75

[uav u0]
kind raw
words 16

[shader]
ps_5_0
dcl_uav_raw u0
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_input_ps_sgv constant v1.x, sampleIndex
dcl_input_ps_sgv constant v2.x, primitive_id
dcl_input vCoverage
dcl_temps 2
ftou r0.xy, v0.xyxx
deriv_rtx_fine r1.x, v0.x
deriv_rty_coarse r1.y, v0.y
and r1.z, vCoverage.x, v1.x
discard_z r1.z
imm_atomic_iadd r1.w, u0, l(0), v2.x
ret

[expect returns]
atomic 0 primitive 1 pixel 3, 2 sample 3 = any
)";

TEST(PixelCase, PrintsAndReadsBack) {
  absl::StatusOr<Case> c = ParseCase(kPixelCase, "p.case");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_TRUE(c->shader.pixel());
  EXPECT_EQ(c->draw.samples, 4u);
  ASSERT_EQ(c->draw.triangles.size(), 2u);
  EXPECT_EQ(c->draw.triangles[1].v[0][0], 1.125 * 256);
  ASSERT_EQ(c->expect_returns.size(), 1u);
  EXPECT_EQ(c->expect_returns[0].group[0], 1u);
  EXPECT_EQ(c->expect_returns[0].thread, (std::array<uint32_t, 3>{3, 2, 3}));
  EXPECT_TRUE(Validate(*c).ok()) << Validate(*c);
  const std::string printed = PrintCase(*c);
  absl::StatusOr<Case> back = ParseCase(printed, "p.case");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, *c);
  EXPECT_EQ(PrintCase(*back), printed);
  // The coverage picture is part of the canonical text.
  EXPECT_THAT(printed, testing::HasSubstr("# primitive 0 covers 10 pixels"));
}

TEST(PixelCase, CoordinatesAreWholeSubpixels) {
  for (int32_t units : {0, 1, -1, 128, -128, 256 * 7 + 3, -256 * 64}) {
    const std::string text = FormatCoordinate(units);
    EXPECT_EQ(ParseCoordinate(text), units) << text;
  }
  EXPECT_EQ(FormatCoordinate(1), "0.00390625");
  EXPECT_EQ(ParseCoordinate("2.125"), 544);
  EXPECT_EQ(ParseCoordinate("0.1"), std::nullopt);  // not k/256
  EXPECT_EQ(ParseCoordinate("1."), std::nullopt);
  EXPECT_EQ(ParseCoordinate("-"), std::nullopt);
  EXPECT_EQ(ParseCoordinate("1e3"), std::nullopt);
  EXPECT_EQ(ParseCoordinate("99999999"), std::nullopt);
}

TEST(PixelCase, RasterizeCountsSamplesInsideOnly) {
  Draw d;
  d.width = 2;
  d.height = 2;
  d.samples = 4;
  // x + 2y < 2: pixel (0,0) has samples 0-2, pixel (1,0) sample 0.
  d.triangles.push_back({{{{0, 0}, {512, 0}, {0, 256}}}});
  EXPECT_EQ(ClearMarginProblem(d), std::nullopt);
  const std::vector<PixelCoverage> cov = Rasterize(d);
  ASSERT_EQ(cov.size(), 2u);
  EXPECT_EQ(cov[0], (PixelCoverage{0, 0, 0, 0b0111}));
  EXPECT_EQ(cov[1], (PixelCoverage{0, 1, 0, 0b0001}));
}

TEST(PixelCase, EdgesNearSamplesAreRefused) {
  Draw d;
  d.width = 2;
  d.height = 2;
  // The edge y = 0.5 runs through the centres of row 0.
  d.triangles.push_back({{{{0, 128}, {512, 128}, {0, 512}}}});
  EXPECT_NE(ClearMarginProblem(d), std::nullopt);
  d.triangles[0] = {{{{0, 0}, {0, 0}, {0, 512}}}};  // no area
  EXPECT_THAT(ClearMarginProblem(d).value_or(""),
              testing::HasSubstr("no area"));
}

TEST(PixelCase, DxbcCarriesTheStageAndSignature) {
  absl::StatusOr<Case> c = ParseCase(kPixelCase, "p.case");
  ASSERT_TRUE(c.ok()) << c.status();
  absl::StatusOr<std::vector<uint8_t>> bytes = EncodeDxbc(c->shader);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  absl::StatusOr<Program> back = DecodeDxbc(*bytes);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, c->shader);
  absl::StatusOr<std::vector<DxbcChunk>> chunks = ParseDxbcContainer(*bytes);
  ASSERT_TRUE(chunks.ok());
  const DxbcChunk& isgn = (*chunks)[0];
  ASSERT_EQ(isgn.fourcc, kFourCcIsgn);
  // Three elements (position, sampleIndex, primitive_id; vCoverage has
  // none), each naming its system value.
  ASSERT_GE(isgn.data.size(), 8u + 3 * 24);
  EXPECT_EQ(isgn.data[0], 3);
  const std::string names(isgn.data.begin() + 8 + 3 * 24, isgn.data.end());
  EXPECT_THAT(names, testing::HasSubstr("SV_Position"));
  EXPECT_THAT(names, testing::HasSubstr("SV_SampleIndex"));
  EXPECT_THAT(names, testing::HasSubstr("SV_PrimitiveID"));
}

TEST(PixelCase, StagesDoNotMix) {
  absl::StatusOr<Case> c = ParseCase(
      "[dispatch]\ngroups 1, 1, 1\n[draw]\nframebuffer 2, 2\nsamples 1\n"
      "triangle 0 0, 4 0, 0 4\n[shader]\nps_5_0\ndcl_thread_group 1, 1, 1\n"
      "sync_g_t\nret\n[expect returns]\natomic 0 group 0, 0, 0 thread 0, 0, "
      "0 = 1\n",
      "mix.case");
  ASSERT_TRUE(c.ok()) << c.status();
  const std::string why(Validate(*c).message());
  EXPECT_THAT(why, testing::HasSubstr("no [dispatch] in a ps_5_0 case"));
  EXPECT_THAT(why, testing::HasSubstr("no dcl_thread_group in ps_5_0"));
  EXPECT_THAT(why, testing::HasSubstr("no sync in ps_5_0"));
  EXPECT_THAT(why, testing::HasSubstr("'primitive P pixel X, Y [sample S]'"));
}

TEST(PixelCase, MalformedDrawsNameTheirLine) {
  auto error = [](const std::string& draw) {
    return std::string(
        ParseCase(absl::StrCat("[draw]\n", draw, "\n[shader]\nps_5_0\nret\n"),
                  "d.case")
            .status()
            .message());
  };
  EXPECT_EQ(error("triangle 0 0, 1 0"),
            "d.case:2:18: expected ',' and a vertex X Y, found end of line");
  EXPECT_EQ(error("triangle 0 0.1, 1 0, 0 1"),
            "d.case:2:12: expected a pixel coordinate (a decimal that is a "
            "whole number of 1/256, such as 3, -0.5 or 2.125), found '0.1'");
  EXPECT_EQ(error("viewport 1, 1"),
            "d.case:2:1: expected 'framebuffer W, H', 'samples N' or "
            "'triangle X Y, X Y, X Y', found 'viewport'");
  EXPECT_EQ(error("samples -1"),
            "d.case:2:8: expected a sample count, found '-1'");
}

}  // namespace
}  // namespace atomfuzz::isa
