#include "targets/trace_invocations.h"

#include <algorithm>
#include <bit>
#include <limits>

#include "absl/strings/str_format.h"
#include "isa/stages.h"

namespace atomfuzz::targets {
namespace {

using isa::InputName;
using isa::Op;

// lavapipe runs a compute group as SIMD vectors of 8 (AVX2) or 16 lanes.
constexpr uint32_t kVectorLanes = 16;
// ... and shades pixels in 4x4 blocks.
constexpr uint32_t kPixelBlock = 4;

bool IsInput(const isa::Instruction& in, InputName name) {
  return (in.op == Op::kDclInputPsSgv || in.op == Op::kDclInputPsSiv) &&
         in.operands.size() == 2 &&
         in.operands[1].index == static_cast<uint32_t>(name);
}

// v0..v31: D3D11's pixel shader inputs (the oracle takes no more).
constexpr uint32_t kInputRegisters = 32;

// Past every declared v#, as fxc orders them, or else the lowest free one.
// A ps_5_0 program reads at most 3 system values and declares each once,
// so one is always free.
uint32_t TakeFreeRegister(uint32_t& used) {
  const uint32_t past = used == 0 ? 0 : 32 - std::countl_zero(used);
  const uint32_t reg = past < kInputRegisters ? past : std::countr_one(used);
  used |= 1u << reg;
  return reg;
}

}  // namespace

uint64_t InvocationSpace::Count() const {
  // Each factor is below 2^32 and at most four multiply: saturate instead
  // of wrapping (the instrumentation refuses anything that large).
  const uint64_t kMax = std::numeric_limits<uint64_t>::max() >> 1;
  auto times = [&](uint64_t a, uint64_t b) {
    return a != 0 && b > kMax / a ? kMax : a * b;
  };
  if (pixel) {
    return times(times(times(primitives, samples), height), width);
  }
  uint64_t n = 1;
  for (size_t k = 0; k < 3; ++k) {
    n = times(n, times(groups[k], group_size[k]));
  }
  return n;
}

void InvocationSpace::Key(uint32_t t, std::array<uint32_t, 3>& group,
                          std::array<uint32_t, 3>& thread) const {
  if (pixel) {
    const uint32_t x = t % width, y = t / width % height;
    const uint32_t run = t / width / height;  // primitive * S + sample
    group = {run / samples, 0, 0};
    thread = {x, y, run % samples};
    return;
  }
  uint32_t rest = t;
  for (size_t k = 0; k < 3; ++k) {
    const uint32_t extent = groups[k] * group_size[k];
    const uint32_t id = rest % extent;
    rest /= extent;
    group[k] = id / group_size[k];
    thread[k] = id % group_size[k];
  }
}

std::array<uint32_t, 4> InvocationSpace::Vector(uint32_t t) const {
  std::array<uint32_t, 3> group, thread;
  Key(t, group, thread);
  if (pixel) {
    return {group[0], thread[2], thread[0] / kPixelBlock,
            thread[1] / kPixelBlock};
  }
  const uint32_t in_group =
      thread[0] + group_size[0] * (thread[1] + group_size[1] * thread[2]);
  return {group[0], group[1], group[2], in_group / kVectorLanes};
}

std::string InvocationSpace::DescribeVector(
    const std::array<uint32_t, 4>& v) const {
  if (pixel) {
    return absl::StrFormat("pixels (%d..%d, %d..%d) of primitive %d, sample %d",
                           v[2] * kPixelBlock, v[2] * kPixelBlock + 3,
                           v[3] * kPixelBlock, v[3] * kPixelBlock + 3, v[0],
                           v[1]);
  }
  return absl::StrFormat(
      "threads %d..%d of group (%d,%d,%d)", v[3] * kVectorLanes,
      v[3] * kVectorLanes + kVectorLanes - 1, v[0], v[1], v[2]);
}

InvocationSpace InvocationsOf(const isa::Case& c,
                              const std::array<uint32_t, 3>& group_size) {
  InvocationSpace s;
  if (!c.shader.pixel()) {
    s.group_size = group_size;
    s.groups = c.groups;
    return s;
  }
  s.pixel = true;
  s.width = c.draw.width;
  s.height = c.draw.height;
  s.samples = isa::RunsPerSample(c.shader) ? c.draw.samples : 1;
  s.primitives = static_cast<uint32_t>(c.draw.triangles.size());
  return s;
}

PixelInputs PlanPixelInputs(const isa::Program& p,
                            const InvocationSpace& space) {
  PixelInputs in;
  uint32_t used = 0;  // bit r: v`r` is declared
  for (size_t i = 0; i < p.instructions.size(); ++i) {
    const isa::Instruction& d = p.instructions[i];
    if (d.op != Op::kDclInputPsSgv && d.op != Op::kDclInputPsSiv) continue;
    const uint32_t reg = d.operands[0].index;
    if (reg < kInputRegisters) used |= 1u << reg;
    if (IsInput(d, InputName::kPosition)) {
      in.position_decl = static_cast<int>(i);
      in.position_reg = reg;
    } else if (IsInput(d, InputName::kPrimitiveId)) {
      in.primitive_decl = static_cast<int>(i);
      in.primitive_reg = reg;
    } else if (IsInput(d, InputName::kSampleIndex)) {
      in.sample_decl = static_cast<int>(i);
      in.sample_reg = reg;
    }
  }
  if (in.position_decl < 0) {
    in.position_reg = TakeFreeRegister(used);
    absl::StrAppendFormat(
        &in.added_decls,
        "dcl_input_ps_siv linear noperspective v%d.xy, position\n",
        in.position_reg);
  }
  // One triangle: its primitive is 0, and SV_PrimitiveID would need the
  // device's geometry feature for nothing.
  in.read_primitive = space.primitives > 1;
  if (in.read_primitive && in.primitive_decl < 0) {
    in.primitive_reg = TakeFreeRegister(used);
    absl::StrAppendFormat(&in.added_decls,
                          "dcl_input_ps_sgv constant v%d.x, primitive_id\n",
                          in.primitive_reg);
  }
  return in;
}

std::string FlatIndexCode(const InvocationSpace& space,
                          const PixelInputs& inputs, uint32_t rc, uint32_t ra) {
  if (!space.pixel) {
    return absl::StrFormat(
        "imad r%1$d.y, vThreadID.z, l(%2$d), vThreadID.y\n"
        "imad r%1$d.y, r%1$d.y, l(%3$d), vThreadID.x\n",
        rc, space.groups[1] * space.group_size[1],
        space.groups[0] * space.group_size[0]);
  }
  // x and y are the integer part of SV_Position either way (the pixel
  // centre, or the sample's location when running per sample: P.2).
  std::string text =
      absl::StrFormat("ftou r%d.xy, v%d.xyxx\n", ra, inputs.position_reg);
  if (inputs.read_primitive) {
    absl::StrAppendFormat(&text, "imul null, r%d.y, v%d.x, l(%d)\n", rc,
                          inputs.primitive_reg, space.samples);
  } else {
    absl::StrAppendFormat(&text, "mov r%d.y, l(0)\n", rc);
  }
  if (inputs.sample_decl >= 0 && space.samples > 1) {
    absl::StrAppendFormat(&text, "iadd r%1$d.y, r%1$d.y, v%2$d.x\n", rc,
                          inputs.sample_reg);
  }
  absl::StrAppendFormat(&text,
                        "imad r%1$d.y, r%1$d.y, l(%3$d), r%2$d.y\n"
                        "imad r%1$d.y, r%1$d.y, l(%4$d), r%2$d.x\n",
                        rc, ra, space.height, space.width);
  return text;
}

}  // namespace atomfuzz::targets
