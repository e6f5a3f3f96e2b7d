// The invocations of a pixel case as the reference runs them (docs/
// pixel-stage.md P.1): per primitive (and per sample, where the shader
// runs per sample) the 2x2 quads its coverage touches, each with four
// lanes; a lane whose pixel (sample) the primitive covers is live, the
// others are helpers that run only for their neighbours' derivatives.
#ifndef ATOMFUZZ_ORACLE_PIXEL_QUADS_H_
#define ATOMFUZZ_ORACLE_PIXEL_QUADS_H_

#include <array>
#include <cstdint>
#include <vector>

#include "isa/case_file.h"

namespace atomfuzz::oracle {

struct PixelLane {
  uint32_t primitive = 0;
  uint32_t x = 0, y = 0;  // may lie one past the framebuffer (a helper)
  uint32_t sample = 0;    // the sample it runs for; 0 at pixel frequency
  bool covered = false;   // live: its stores and atomics may take effect
  uint8_t coverage = 0;   // the pixel's covered samples (SV_Coverage)
};

// Lanes in quad order: (x, y), (x+1, y), (x, y+1), (x+1, y+1), so that
// lane ^ 1 is the horizontal neighbour and lane ^ 2 the vertical one.
using PixelQuad = std::array<PixelLane, 4>;

// The quads of the draw, by primitive, sample, row, column.
std::vector<PixelQuad> PixelQuads(const isa::Case& c);

}  // namespace atomfuzz::oracle

#endif  // ATOMFUZZ_ORACLE_PIXEL_QUADS_H_
