// How the trace log (trace_instrumentation.h) numbers the invocations of a
// case: one flat index t per invocation, which the instrumented program
// computes from its inputs and DecodeTrace turns back into the oracle's
// keys of a trace event.
//   compute: t = x + X*(y + Y*z) of vThreadID over the whole dispatch;
//            key {group, vThreadIDInGroup}
//   pixel:   t = ((primitive * S + sample) * H + y) * W + x over a W x H
//            framebuffer, S = the draw's samples where the shader runs per
//            sample (it reads SV_SampleIndex), else 1; key {{primitive, 0,
//            0}, {x, y, sample}} (docs/pixel-stage.md P.1, P.2)
// A pixel invocation that is never live (a helper, one discarded before it
// wrote its record, a pixel no triangle covers) writes no record: the GPU
// drops a helper's stores. Its index is then simply absent from the log.
#ifndef ATOMFUZZ_TARGETS_TRACE_INVOCATIONS_H_
#define ATOMFUZZ_TARGETS_TRACE_INVOCATIONS_H_

#include <array>
#include <cstdint>
#include <string>

#include "isa/case_file.h"

namespace atomfuzz::targets {

struct InvocationSpace {
  bool pixel = false;
  // compute
  std::array<uint32_t, 3> group_size = {1, 1, 1};
  std::array<uint32_t, 3> groups = {1, 1, 1};
  // pixel
  uint32_t width = 0, height = 0;  // the framebuffer
  uint32_t samples = 1;            // S
  uint32_t primitives = 0;

  // How many flat indices there are (saturating at 2^63).
  uint64_t Count() const;
  // The trace event key of invocation t < Count().
  void Key(uint32_t t, std::array<uint32_t, 3>& group,
           std::array<uint32_t, 3>& thread) const;
  // The SIMD vector of lavapipe that runs t, whose lanes' loop iterations
  // count against one budget: 16 consecutive threads of a group; for
  // pixels, a 4x4 block of one primitive and sample (llvmpipe shades 4x4
  // blocks), our conservative reading.
  std::array<uint32_t, 4> Vector(uint32_t t) const;
  // "threads 0..15 of group (0,0,0)" or "pixels (4..7, 0..3) of primitive
  // 1, sample 0", for a key Vector gave.
  std::string DescribeVector(const std::array<uint32_t, 4>& v) const;
};

// `group_size` is the compute program's dcl_thread_group (unused for ps).
InvocationSpace InvocationsOf(const isa::Case& c,
                              const std::array<uint32_t, 3>& group_size);

// The pixel inputs the flat index reads, as the program declares them or as
// the instrumentation adds them. Never SV_SampleIndex: adding it would make
// the shader run per sample.
struct PixelInputs {
  int position_decl = -1;  // the program's own SV_Position, its mask widened
  uint32_t position_reg = 0;
  int primitive_decl = -1;  // the program's own SV_PrimitiveID
  uint32_t primitive_reg = 0;
  bool read_primitive = false;  // more than one triangle
  int sample_decl = -1;         // the program's own SV_SampleIndex
  uint32_t sample_reg = 0;
  std::string added_decls;  // assembler text of the declarations to add
};

PixelInputs PlanPixelInputs(const isa::Program& p,
                            const InvocationSpace& space);

// Assembler text that leaves the flat index of the running invocation in
// r`rc`.y, with r`ra` as scratch.
std::string FlatIndexCode(const InvocationSpace& space,
                          const PixelInputs& inputs, uint32_t rc, uint32_t ra);

}  // namespace atomfuzz::targets

#endif  // ATOMFUZZ_TARGETS_TRACE_INVOCATIONS_H_
