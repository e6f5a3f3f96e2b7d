#include "oracle/pixel_quads.h"

#include <map>
#include <utility>

#include "isa/raster.h"
#include "isa/stages.h"

namespace atomfuzz::oracle {

std::vector<PixelQuad> PixelQuads(const isa::Case& c) {
  const std::vector<isa::PixelCoverage> covered = isa::Rasterize(c.draw);
  const bool per_sample = isa::RunsPerSample(c.shader);
  const uint32_t runs = per_sample ? c.draw.samples : 1;
  // (primitive, sample, quad y, quad x) -> the quad; ordered, so that the
  // quads come out in the order the header promises.
  std::map<std::array<uint32_t, 4>, PixelQuad> quads;
  for (const isa::PixelCoverage& p : covered) {
    for (uint32_t s = 0; s < runs; ++s) {
      if (per_sample && !(p.samples >> s & 1)) continue;
      const std::array<uint32_t, 4> key = {p.primitive, s, p.y / 2, p.x / 2};
      auto [it, fresh] = quads.try_emplace(key);
      PixelQuad& q = it->second;
      if (fresh) {
        for (uint32_t l = 0; l < 4; ++l) {
          q[l] = {p.primitive,
                  (p.x & ~1u) + (l & 1),
                  (p.y & ~1u) + (l >> 1),
                  s,
                  false,
                  0};
        }
      }
      PixelLane& lane = q[(p.x & 1) | (p.y & 1) << 1];
      lane.covered = true;
      lane.coverage = p.samples;
    }
  }
  std::vector<PixelQuad> out;
  out.reserve(quads.size());
  for (auto& [key, q] : quads) out.push_back(q);
  return out;
}

}  // namespace atomfuzz::oracle
