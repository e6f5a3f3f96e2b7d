#include "isa/raster.h"

#include <algorithm>
#include <cstdlib>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace atomfuzz::isa {
namespace {

using Point = std::array<int64_t, 2>;
using Wide = __int128;

// In 1/256 pixel: the 1x pattern is the centre; the 4x one is D3D11's
// standard pattern (1/16 pixel offsets (-2,-6), (6,-2), (-6,2), (2,6) from
// the centre), which Vulkan's standard sample locations repeat.
constexpr std::array<int32_t, 2> kOne[] = {{128, 128}};
constexpr std::array<int32_t, 2> kFour[] = {
    {96, 32}, {224, 96}, {32, 160}, {160, 224}};

// (b - a) x (p - a): positive on one side of the line a -> b.
Wide Edge(const Point& a, const Point& b, const Point& p) {
  return Wide{b[0] - a[0]} * (p[1] - a[1]) - Wide{b[1] - a[1]} * (p[0] - a[0]);
}

std::array<Point, 3> PointsOf(const Triangle& t) {
  std::array<Point, 3> p;
  for (size_t i = 0; i < 3; ++i) p[i] = {t.v[i][0], t.v[i][1]};
  return p;
}

Point SamplePoint(uint32_t x, uint32_t y, const std::array<int32_t, 2>& s) {
  return {int64_t{x} * kSubpixelsPerPixel + s[0],
          int64_t{y} * kSubpixelsPerPixel + s[1]};
}

bool Inside(const std::array<Point, 3>& t, Wide area, const Point& p) {
  const Wide e0 = Edge(t[0], t[1], p), e1 = Edge(t[1], t[2], p),
             e2 = Edge(t[2], t[0], p);
  return area > 0 ? e0 > 0 && e1 > 0 && e2 > 0 : e0 < 0 && e1 < 0 && e2 < 0;
}

// Whether p lies within 1/64 pixel (4 units) of the line a -> b:
// |edge| / |b - a| < 4, squared to stay exact.
bool NearLine(const Point& a, const Point& b, const Point& p) {
  const Wide e = Edge(a, b, p);
  const Wide dx = b[0] - a[0], dy = b[1] - a[1];
  return e * e < 16 * (dx * dx + dy * dy);
}

}  // namespace

std::span<const std::array<int32_t, 2>> SamplePattern(uint32_t samples) {
  if (samples == 4) return kFour;
  return kOne;
}

std::vector<PixelCoverage> Rasterize(const Draw& draw) {
  std::vector<PixelCoverage> out;
  const auto pattern = SamplePattern(draw.samples);
  for (size_t prim = 0; prim < draw.triangles.size(); ++prim) {
    const std::array<Point, 3> t = PointsOf(draw.triangles[prim]);
    const Wide area = Edge(t[0], t[1], t[2]);
    if (area == 0) continue;
    for (uint32_t y = 0; y < draw.height; ++y) {
      for (uint32_t x = 0; x < draw.width; ++x) {
        uint8_t mask = 0;
        for (size_t s = 0; s < pattern.size(); ++s) {
          if (Inside(t, area, SamplePoint(x, y, pattern[s]))) {
            mask |= static_cast<uint8_t>(1u << s);
          }
        }
        if (mask != 0) {
          out.push_back({static_cast<uint32_t>(prim), x, y, mask});
        }
      }
    }
  }
  return out;
}

std::optional<std::string> ClearMarginProblem(const Draw& draw) {
  const auto pattern = SamplePattern(draw.samples);
  for (size_t prim = 0; prim < draw.triangles.size(); ++prim) {
    const std::array<Point, 3> t = PointsOf(draw.triangles[prim]);
    if (Edge(t[0], t[1], t[2]) == 0) {
      return absl::StrCat("triangle ", prim, " has no area");
    }
    // Only sample points near the triangle can be near its edges' segments;
    // testing the whole lines there is stricter, never looser.
    int64_t lo[2], hi[2];
    for (int k = 0; k < 2; ++k) {
      lo[k] = std::min({t[0][k], t[1][k], t[2][k]}) - 4;
      hi[k] = std::max({t[0][k], t[1][k], t[2][k]}) + 4;
    }
    for (uint32_t y = 0; y < draw.height; ++y) {
      for (uint32_t x = 0; x < draw.width; ++x) {
        for (size_t s = 0; s < pattern.size(); ++s) {
          const Point p = SamplePoint(x, y, pattern[s]);
          if (p[0] < lo[0] || p[0] > hi[0] || p[1] < lo[1] || p[1] > hi[1]) {
            continue;
          }
          for (int e = 0; e < 3; ++e) {
            if (NearLine(t[e], t[(e + 1) % 3], p)) {
              return absl::StrFormat(
                  "triangle %d: sample %d of pixel (%d, %d) lies within 1/64 "
                  "pixel of the edge from vertex %d to %d",
                  prim, s, x, y, e, (e + 1) % 3);
            }
          }
        }
      }
    }
  }
  return std::nullopt;
}

std::string FormatCoordinate(int32_t units) {
  const int64_t v = units;
  const int64_t mag = std::llabs(v);
  std::string s = absl::StrCat(v < 0 ? "-" : "", mag / kSubpixelsPerPixel);
  int64_t frac = mag % kSubpixelsPerPixel;
  if (frac != 0) {
    s += '.';
    // 1/256 = 0.00390625: at most 8 decimal digits, each exact.
    while (frac != 0) {
      frac *= 10;
      s += static_cast<char>('0' + frac / kSubpixelsPerPixel);
      frac %= kSubpixelsPerPixel;
    }
  }
  return s;
}

std::optional<int32_t> ParseCoordinate(absl::string_view text) {
  bool negative = false;
  if (!text.empty() && text[0] == '-') {
    negative = true;
    text.remove_prefix(1);
  }
  const size_t dot = text.find('.');
  const absl::string_view whole = text.substr(0, dot);
  const absl::string_view frac = dot == absl::string_view::npos
                                     ? absl::string_view()
                                     : text.substr(dot + 1);
  if (whole.empty() || whole.size() > 6 ||
      whole.find_first_not_of("0123456789") != absl::string_view::npos ||
      (dot != absl::string_view::npos && frac.empty()) || frac.size() > 8 ||
      frac.find_first_not_of("0123456789") != absl::string_view::npos) {
    return std::nullopt;
  }
  int64_t w = 0;
  for (char c : whole) w = w * 10 + (c - '0');
  // frac / 10^digits must be k / 256: frac * 256 divisible by 10^digits.
  int64_t f = 0, scale = 1;
  for (char c : frac) {
    f = f * 10 + (c - '0');
    scale *= 10;
  }
  if ((f * kSubpixelsPerPixel) % scale != 0) return std::nullopt;
  int64_t units = w * kSubpixelsPerPixel + f * kSubpixelsPerPixel / scale;
  if (negative) units = -units;
  if (units > INT32_MAX || units < INT32_MIN) return std::nullopt;
  return static_cast<int32_t>(units);
}

std::vector<std::string> CoverageComment(const Draw& draw) {
  std::vector<std::string> lines;
  if (draw.width > 32 || draw.width == 0) return lines;
  const std::vector<PixelCoverage> covered = Rasterize(draw);
  for (size_t prim = 0; prim < draw.triangles.size(); ++prim) {
    std::vector<std::string> rows(draw.height, std::string(draw.width, '.'));
    uint32_t first = draw.height, last = 0, pixels = 0, samples = 0;
    for (const PixelCoverage& p : covered) {
      if (p.primitive != prim) continue;
      const int n = __builtin_popcount(p.samples);
      rows[p.y][p.x] = n == static_cast<int>(draw.samples)
                           ? '#'
                           : static_cast<char>('0' + n);
      first = std::min(first, p.y);
      last = std::max(last, p.y);
      ++pixels;
      samples += static_cast<uint32_t>(n);
    }
    lines.push_back(
        absl::StrFormat("# primitive %d covers %d pixels", prim, pixels) +
        (draw.samples > 1 ? absl::StrFormat(", %d samples", samples)
                          : std::string()));
    for (uint32_t y = first; y <= last && pixels != 0; ++y) {
      lines.push_back(absl::StrFormat("#   %2d %s", y, rows[y]));
    }
  }
  return lines;
}

}  // namespace atomfuzz::isa
