// Triangles and draws for pixel cases (docs/pixel-stage.md P.1), shared by
// the generator and the pixel mutations. Every triangle made here clears
// the validator's margin rule (isa::ClearMarginProblem): a sample point
// near an edge would let the fill rule decide coverage, so vertices are
// nudged until none is, and a simpler triangle stands in when that fails.
#ifndef ATOMFUZZ_FUZZ_GENERATE_DRAW_GEOMETRY_H_
#define ATOMFUZZ_FUZZ_GENERATE_DRAW_GEOMETRY_H_

#include <cstdint>
#include <optional>

#include "fuzz/generate/choices.h"
#include "fuzz/generate/policy.h"
#include "isa/case_file.h"

namespace atomfuzz::fuzz {

// Whether `t` alone clears the margin rule on `d`'s framebuffer and
// samples (the rule looks at each triangle apart from the others).
bool TriangleClear(const isa::Draw& d, const isa::Triangle& t);

// A triangle over every framebuffer (up to 64 pixels a side) whose edges
// lie well away from every sample point: it clears the margin rule for
// any size and sample count without a check.
isa::Triangle CoverAll();

// Moves a vertex of `t` by a small step until it clears the margin rule,
// at most `tries` times; false (and `t` moved) when it never did.
bool NudgeUntilClear(const isa::Draw& d, isa::Triangle& t, uint32_t tries,
                     Choices& choices);

// A triangle that partly covers the framebuffer of `d` (its width, height
// and samples set), often cutting quads; over `over` when given (overlap).
// Clears the margin rule: a right triangle with axis-aligned legs when
// nudging fails, CoverAll when that does too. A draw of 0 everywhere
// (ByteChoices out of bytes) gives CoverAll
// when cover_all_per_mille > 0.
isa::Triangle PickTriangle(const isa::Draw& d, const PixelPolicy& policy,
                           const isa::Triangle* over, Choices& choices);

// A framebuffer, a sample count and 1..max_triangles triangles, within
// policy.max_invocations (isa::ThreadCount of a case with this draw).
isa::Draw PickDraw(const PixelPolicy& policy, Choices& choices);

// Whether some quad of the draw holds a helper lane (an uncovered pixel
// next to a covered one, or a pixel past the framebuffer's odd edge), at
// pixel frequency: vCoverage is undefined there (P.2).
bool HasHelperLanes(const isa::Draw& d);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_GENERATE_DRAW_GEOMETRY_H_
