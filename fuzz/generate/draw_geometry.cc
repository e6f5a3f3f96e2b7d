#include "fuzz/generate/draw_geometry.h"

#include <algorithm>
#include <array>
#include <set>
#include <tuple>
#include <vector>

#include "isa/raster.h"

namespace atomfuzz::fuzz {
namespace {

constexpr int32_t kPixel = isa::kSubpixelsPerPixel;
// Random vertices sit on a grid of 1/16 pixel: fine enough for any slope,
// coarse enough that a nudge by one step moves an edge off a sample.
constexpr int32_t kStep = kPixel / 16;

isa::Triangle Make(std::array<int32_t, 2> a, std::array<int32_t, 2> b,
                   std::array<int32_t, 2> c) {
  isa::Triangle t;
  t.v = {a, b, c};
  return t;
}

// A coordinate on the grid within [lo, hi] pixels.
int32_t GridCoordinate(Choices& choices, int32_t lo, int32_t hi) {
  const auto steps = static_cast<uint32_t>((hi - lo) * (kPixel / kStep));
  return lo * kPixel + static_cast<int32_t>(choices.InRange(0, steps)) * kStep;
}

// Legs along the axes from a whole-pixel corner: cuts quads along pixel
// edges and across them on the hypotenuse.
isa::Triangle RightTriangle(const isa::Draw& d, Choices& choices) {
  const auto w = static_cast<int32_t>(d.width);
  const auto h = static_cast<int32_t>(d.height);
  const int32_t x = static_cast<int32_t>(choices.InRange(0, d.width));
  const int32_t y = static_cast<int32_t>(choices.InRange(0, d.height));
  const int32_t a = static_cast<int32_t>(choices.InRange(1, d.width + 1));
  const int32_t b = static_cast<int32_t>(choices.InRange(1, d.height + 1));
  const int32_t sx = x + a <= w + 1 && choices.Below(2) == 0 ? 1 : -1;
  const int32_t sy = y + b <= h + 1 && choices.Below(2) == 0 ? 1 : -1;
  return Make({x * kPixel, y * kPixel}, {(x + sx * a) * kPixel, y * kPixel},
              {x * kPixel, (y + sy * b) * kPixel});
}

// Any three grid points around the framebuffer, or around the centroid
// of `over` (so that the two overlap).
isa::Triangle FreeTriangle(const isa::Draw& d, const isa::Triangle* over,
                           Choices& choices) {
  isa::Triangle t;
  const auto w = static_cast<int32_t>(d.width);
  const auto h = static_cast<int32_t>(d.height);
  for (auto& v : t.v) {
    if (over == nullptr) {
      v = {GridCoordinate(choices, -2, w + 2),
           GridCoordinate(choices, -2, h + 2)};
      continue;
    }
    std::array<int32_t, 2> centre = {0, 0};
    for (const auto& o : over->v) {
      centre[0] += o[0] / 3;
      centre[1] += o[1] / 3;
    }
    const int32_t rx = std::max(1, w / 2), ry = std::max(1, h / 2);
    for (int k = 0; k < 2; ++k) {
      const int32_t r = k == 0 ? rx : ry;
      v[static_cast<size_t>(k)] =
          std::clamp(centre[static_cast<size_t>(k)] / kStep * kStep +
                         GridCoordinate(choices, -r, r),
                     -2 * kPixel, ((k == 0 ? w : h) + 2) * kPixel);
    }
  }
  return t;
}

isa::Draw Alone(const isa::Draw& d, const isa::Triangle& t) {
  isa::Draw one;
  one.width = d.width;
  one.height = d.height;
  one.samples = d.samples;
  one.triangles = {t};
  return one;
}

// Quad pixels x samples x triangles: isa::ThreadCount of such a draw.
uint64_t Invocations(uint32_t w, uint32_t h, uint32_t samples, uint32_t n) {
  return uint64_t{(w + 1) & ~1u} * ((h + 1) & ~1u) * samples * n;
}

}  // namespace

bool TriangleClear(const isa::Draw& d, const isa::Triangle& t) {
  return !isa::ClearMarginProblem(Alone(d, t)).has_value();
}

// Holds [0, 64]^2, the largest framebuffer, within the vertex reach. The
// edges from (-64, -64) run below y = (x - 64) / 2 and left of
// x = (y - 64) / 2, at least 1/6 pixel from any sample point (whose x and y
// are 1/8 or more past a pixel edge); the third, x + y = 160, is far away.
isa::Triangle CoverAll() {
  return Make({-64 * kPixel, -64 * kPixel}, {128 * kPixel, 32 * kPixel},
              {32 * kPixel, 128 * kPixel});
}

bool NudgeUntilClear(const isa::Draw& d, isa::Triangle& t, uint32_t tries,
                     Choices& choices) {
  for (uint32_t i = 0;; ++i) {
    if (TriangleClear(d, t)) return true;
    if (i >= tries) return false;
    auto& v = t.v[choices.Below(3)];
    for (int k = 0; k < 2; ++k) {
      const auto step = static_cast<int32_t>(choices.InRange(1, 8)) * kStep;
      v[static_cast<size_t>(k)] += choices.Below(2) == 0 ? step : -step;
    }
  }
}

isa::Triangle PickTriangle(const isa::Draw& d, const PixelPolicy& policy,
                           const isa::Triangle* over, Choices& choices) {
  // A draw of 0 takes the first branch: the simplest draw covers all.
  const uint64_t shape = choices.Below(1000);
  if (shape < policy.cover_all_per_mille) return CoverAll();
  isa::Triangle t =
      shape < policy.cover_all_per_mille + policy.right_triangle_per_mille
          ? RightTriangle(d, choices)
          : FreeTriangle(d, over, choices);
  if (NudgeUntilClear(d, t, policy.nudge_tries, choices)) return t;
  t = RightTriangle(d, choices);
  return TriangleClear(d, t) ? t : CoverAll();
}

isa::Draw PickDraw(const PixelPolicy& policy, Choices& choices) {
  isa::Draw d;
  d.samples = choices.PerMille(policy.four_samples_per_mille) ? 4 : 1;
  const uint32_t max_side =
      std::clamp<uint32_t>(policy.max_side, 1, isa::kMaxFramebufferSide);
  const uint32_t min_side = std::clamp<uint32_t>(policy.min_side, 1, max_side);
  auto side = [&] {
    uint32_t s = choices.InRange(min_side, max_side);
    // Odd sides leave quads half outside; even ones fill every quad.
    if (choices.PerMille(policy.odd_side_per_mille) == (s % 2 == 0)) {
      s = s < max_side ? s + 1 : s - 1;
    }
    return std::max(s, 1u);
  };
  d.width = side();
  d.height = side();
  uint32_t n = choices.InRange(
      1, std::clamp<uint32_t>(policy.max_triangles, 1, isa::kMaxTriangles));
  const uint64_t budget = std::max<uint32_t>(policy.max_invocations, 4);
  while (n > 1 && Invocations(d.width, d.height, d.samples, n) > budget) --n;
  while (Invocations(d.width, d.height, d.samples, n) > budget &&
         (d.width > 1 || d.height > 1)) {
    uint32_t& longer = d.width >= d.height ? d.width : d.height;
    longer = longer > 2 ? longer - 2 : 1;
  }
  for (uint32_t i = 0; i < n; ++i) {
    const bool overlap =
        !d.triangles.empty() && choices.PerMille(policy.overlap_per_mille);
    const isa::Triangle* over =
        overlap ? &d.triangles[choices.Below(d.triangles.size())] : nullptr;
    const isa::Triangle t = PickTriangle(d, policy, over, choices);
    d.triangles.push_back(t);
  }
  return d;
}

bool HasHelperLanes(const isa::Draw& d) {
  std::set<std::tuple<uint32_t, uint32_t, uint32_t>> covered;
  for (const isa::PixelCoverage& p : isa::Rasterize(d)) {
    covered.insert({p.primitive, p.x, p.y});
  }
  for (const auto& [prim, x, y] : covered) {
    const uint32_t qx = x & ~1u, qy = y & ~1u;
    for (uint32_t k = 0; k < 4; ++k) {
      if (!covered.contains({prim, qx + (k & 1), qy + (k >> 1)})) return true;
    }
  }
  return false;
}

}  // namespace atomfuzz::fuzz
