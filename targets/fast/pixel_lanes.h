// The lanes of a pixel case as the fast executor runs them: whole 2x2
// quads, four consecutive lanes each, so that a lane's quad neighbours
// are lane ^ 1 (across) and lane ^ 2 (down). Worked out here, apart from
// the oracle's own quads: the comparison is meant to catch either getting
// it wrong.
#ifndef ATOMFUZZ_TARGETS_FAST_PIXEL_LANES_H_
#define ATOMFUZZ_TARGETS_FAST_PIXEL_LANES_H_

#include <cstdint>
#include <vector>

#include "isa/case_file.h"

namespace atomfuzz::targets::fast {

struct PixelLaneInfo {
  uint32_t primitive = 0, x = 0, y = 0, sample = 0;
  uint32_t coverage = 0;  // the pixel's covered samples; 0 for a helper
  bool covered = false;   // live at the start (not a helper)
};

// Every quad the draw's coverage touches, four lanes each, into `lanes`
// (cleared first).
void BuildPixelLanes(const isa::Case& c, std::vector<PixelLaneInfo>& lanes);

}  // namespace atomfuzz::targets::fast

#endif  // ATOMFUZZ_TARGETS_FAST_PIXEL_LANES_H_
