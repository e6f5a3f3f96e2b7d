#include "targets/fast/pixel_lanes.h"

#include <algorithm>

#include "isa/raster.h"
#include "isa/stages.h"

namespace atomfuzz::targets::fast {

void BuildPixelLanes(const isa::Case& c, std::vector<PixelLaneInfo>& lanes) {
  lanes.clear();
  const std::vector<isa::PixelCoverage> covered = isa::Rasterize(c.draw);
  const uint32_t runs = isa::RunsPerSample(c.shader) ? c.draw.samples : 1;
  // Rasterize lists pixels by primitive, then row: the quads of one
  // primitive's rows 2k and 2k+1 are met while scanning those two rows. A
  // quad is found by its top-left corner among the lanes added for the
  // current primitive and pair of rows.
  size_t band_start = 0;
  uint32_t band_primitive = UINT32_MAX, band_row = UINT32_MAX;
  for (uint32_t run = 0; run < runs; ++run) {
    for (const isa::PixelCoverage& p : covered) {
      const uint32_t mask = runs > 1 ? (p.samples >> run & 1u) : p.samples;
      if (mask == 0) continue;
      const uint32_t qx = p.x & ~1u, qy = p.y & ~1u;
      if (p.primitive != band_primitive || qy != band_row) {
        band_start = lanes.size();
        band_primitive = p.primitive;
        band_row = qy;
      }
      size_t quad = band_start;
      while (quad < lanes.size() && lanes[quad].x != qx) quad += 4;
      if (quad == lanes.size()) {
        for (uint32_t k = 0; k < 4; ++k) {
          PixelLaneInfo& lane = lanes.emplace_back();
          lane.primitive = p.primitive;
          lane.x = qx + (k & 1);
          lane.y = qy + (k >> 1);
          lane.sample = runs > 1 ? run : 0;
        }
      }
      PixelLaneInfo& lane = lanes[quad + (p.x & 1) + 2 * (p.y & 1)];
      lane.covered = true;
      lane.coverage = p.samples;
    }
    band_primitive = UINT32_MAX;  // a new run starts new quads
  }
}

}  // namespace atomfuzz::targets::fast
