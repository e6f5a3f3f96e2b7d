// Mutations of a pixel case (docs/pixel-stage.md): its draw and its
// discards. Each keeps the draw's margins clear (isa::ClearMarginProblem)
// or does not apply: a mutant whose coverage a fill rule could decide
// would be refused by the validator anyway, one attempt wasted.
#include <vector>

#include "fuzz/generate/case_facts.h"
#include "fuzz/generate/draw_geometry.h"
#include "fuzz/generate/operand_builder.h"
#include "fuzz/mutate/mutations.h"

namespace atomfuzz::fuzz {
namespace {

using isa::Op;

constexpr int32_t kStep = isa::kSubpixelsPerPixel / 16;

bool AllClear(const isa::Draw& d) {
  for (const isa::Triangle& t : d.triangles) {
    if (!TriangleClear(d, t)) return false;
  }
  return true;
}

std::vector<size_t> Discards(const isa::Program& p) {
  std::vector<size_t> at;
  for (size_t i = 0; i < p.instructions.size(); ++i) {
    if (p.instructions[i].info().family == isa::Family::kDiscard) {
      at.push_back(i);
    }
  }
  return at;
}

}  // namespace

bool MoveVertex(isa::Case& c, Choices& choices, const Policy& policy) {
  isa::Draw& d = c.draw;
  if (!c.shader.pixel() || d.triangles.empty()) return false;
  isa::Triangle& t = d.triangles[choices.Below(d.triangles.size())];
  auto& v = t.v[choices.Below(3)];
  if (choices.Below(4) == 0) {
    // Anywhere around the framebuffer, on the 1/16 pixel grid.
    for (int k = 0; k < 2; ++k) {
      const uint32_t side = k == 0 ? d.width : d.height;
      v[static_cast<size_t>(k)] =
          (static_cast<int32_t>(choices.InRange(0, (side + 4) * 16)) - 32) *
          kStep;
    }
  } else {
    // A small step: a quad gains or loses a lane.
    for (int k = 0; k < 2; ++k) {
      v[static_cast<size_t>(k)] +=
          (static_cast<int32_t>(choices.InRange(0, 32)) - 16) * kStep;
    }
  }
  return NudgeUntilClear(d, t, policy.pixel.nudge_tries, choices);
}

bool ToggleDiscard(isa::Case& c, Choices& choices, const Policy& policy) {
  if (!c.shader.pixel()) return false;
  auto& code = c.shader.instructions;
  const std::vector<size_t> at = Discards(c.shader);
  const uint64_t what = at.empty() ? 2 : choices.Below(3);
  if (what < 2) {
    const size_t i = at[choices.Below(at.size())];
    if (what == 0) {
      code[i].op = code[i].op == Op::kDiscardZ ? Op::kDiscardNz : Op::kDiscardZ;
    } else {
      code.erase(code.begin() + static_cast<ptrdiff_t>(i));
    }
    return true;
  }
  const CaseFacts f = GatherFacts(c);
  const std::optional<size_t> pos = PickInsertionPoint(choices, c.shader, f);
  if (!pos) return false;
  isa::Instruction d;
  d.op = choices.Below(2) == 0 ? Op::kDiscardZ : Op::kDiscardNz;
  d.operands = {ScalarSource(choices, f)};
  code.insert(code.begin() + static_cast<ptrdiff_t>(*pos), std::move(d));
  return true;
}

bool ChangeSamples(isa::Case& c, Choices& choices, const Policy& policy) {
  if (!c.shader.pixel()) return false;
  c.draw.samples = c.draw.samples == 4 ? 1 : 4;
  return AllClear(c.draw);
}

bool AddTriangle(isa::Case& c, Choices& choices, const Policy& policy) {
  isa::Draw& d = c.draw;
  if (!c.shader.pixel() || d.triangles.size() >= isa::kMaxTriangles) {
    return false;
  }
  const isa::Triangle* over =
      d.triangles.empty() ? nullptr
                          : &d.triangles[choices.Below(d.triangles.size())];
  const isa::Triangle t = PickTriangle(d, policy.pixel, over, choices);
  d.triangles.insert(d.triangles.begin() + static_cast<ptrdiff_t>(choices.Below(
                                               d.triangles.size() + 1)),
                     t);
  return true;
}

bool RemoveTriangle(isa::Case& c, Choices& choices, const Policy& policy) {
  isa::Draw& d = c.draw;
  if (!c.shader.pixel() || d.triangles.size() < 2) return false;
  d.triangles.erase(d.triangles.begin() +
                    static_cast<ptrdiff_t>(choices.Below(d.triangles.size())));
  return true;
}

}  // namespace atomfuzz::fuzz
