// Which samples a pixel case's triangles cover: the geometry the spec's
// rasterization rules decide, worked out once for everyone (docs/
// pixel-stage.md P.1). Quads, helpers and what a lane may do are the
// executors' own business; this file says only what is covered.
#ifndef ATOMFUZZ_ISA_RASTER_H_
#define ATOMFUZZ_ISA_RASTER_H_

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "isa/case_file.h"

namespace atomfuzz::isa {

// The standard sample positions (D3D11 and Vulkan agree for 1 and 4), in
// 1/256 pixel from the pixel's top-left corner; sample i is entry i.
std::span<const std::array<int32_t, 2>> SamplePattern(uint32_t samples);

// One pixel a triangle covers, with the samples it covers as bits.
struct PixelCoverage {
  uint32_t primitive = 0;
  uint32_t x = 0, y = 0;
  uint8_t samples = 0;  // bit i: sample i is inside the triangle
  bool operator==(const PixelCoverage&) const = default;
};

// The covered pixels inside the framebuffer, by primitive, then row, then
// column. Meaningful once ClearMarginProblem(draw) is empty: then every
// rasterizer agrees on it whatever its fill rule.
std::vector<PixelCoverage> Rasterize(const Draw& draw);

// Why coverage could differ between rasterizers, or nullopt: a triangle
// with no area, or a sample point inside the framebuffer within 1/64 pixel
// of a triangle's edge (so the fill rule or subpixel snapping decides).
std::optional<std::string> ClearMarginProblem(const Draw& draw);

// A vertex coordinate in 1/256 pixel as the case file writes it: "12",
// "-0.5", "3.25", "0.00390625". ParseCoordinate reads it back (nullopt:
// not a decimal that is a whole number of 1/256).
std::string FormatCoordinate(int32_t units);
std::optional<int32_t> ParseCoordinate(absl::string_view text);

// fmt's picture of the coverage, as comment lines ("# " first): per
// primitive, the rows it touches, '.' for none, '#' for every sample, a
// digit for how many of 4. Empty where the framebuffer is too large to
// draw (more than 32 columns).
std::vector<std::string> CoverageComment(const Draw& draw);

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_RASTER_H_
