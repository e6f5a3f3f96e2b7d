// A case compiled for the fast executor: flat, pre-decoded instructions
// whose operands are offsets into a wave's structure-of-arrays register
// file, each with the handler chosen for its opcode, memory kind and
// operand form (and any injected bug).
#ifndef ATOMFUZZ_TARGETS_FAST_COMPILED_H_
#define ATOMFUZZ_TARGETS_FAST_COMPILED_H_

#include <array>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "isa/blocks.h"
#include "isa/case_file.h"
#include "isa/opcode_table.h"
#include "targets/fast/constant_slots.h"
#include "targets/fast/injection.h"
#include "targets/fast/memory_slots.h"
#include "targets/fast/pixel_lanes.h"

namespace atomfuzz::targets::fast {

struct Wave;
struct Decoded;
using Handler = void (*)(Wave&, const Decoded&);

// A memory the program addresses: a UAV view or one g#.
struct Memory {
  enum class Kind : uint8_t { kRaw, kStructured, kTyped };
  Kind kind = Kind::kRaw;
  bool tgsm = false;
  uint32_t slot = 0;
  uint64_t words = 0;
  uint32_t stride = 0, elements = 0;  // structured
  isa::Dim dim = isa::Dim::kBuffer;   // typed
  std::array<uint32_t, 3> size = {1, 1, 1};
  int width = 1;           // address components (spec 1.2)
  uint32_t tgsm_base = 0;  // first word in the wave's TGSM block
  uint32_t uav = 0;        // index into the run's UAV buffers
  bool float_format = false;
};

// Register slots: each slot holds one component for every lane of a wave
// (slot * lanes + lane).
struct Decoded {
  Handler fn = nullptr;
  uint32_t instruction = 0;             // index in the program (trace)
  uint8_t mask = 0;                     // destination components
  std::array<uint32_t, 4> dst = {};     // slot per component
  std::array<uint32_t, 4> dst_hi = {};  // imul/umul high half
  uint8_t hi_mask = 0;
  std::array<std::array<uint32_t, 4>, 4> src = {};  // [source][component]
  int memory = -1;      // index into CompiledCase::memories
  uint32_t target = 0;  // jump target (control flow)
  uint32_t atomic = 0;  // ordinal among atomics (occurrences)
  isa::Rmw rmw = isa::Rmw::kNone;
  bool returns = false;  // an immediate atomic (dst0)
  uint8_t sync_flags = 0;
  uint32_t case_value = 0;  // case l(N)
  bool nonzero = false;     // discard_nz (else discard_z)
  // Pixel stage: a store or atomic runs `inner` with the wave's active
  // mask narrowed to the lanes that may touch memory (pixel_handlers.cc).
  Handler inner = nullptr;
  // Gather/scatter of x#[rN.c + k] into scratch slots (pseudo-instructions
  // around the instruction that uses it): element 0's first slot, elements,
  // constant offset, and the slot of rN.c (UINT32_MAX: no relative part).
  uint32_t x_base = 0, x_elements = 0, x_offset = 0, x_rel = UINT32_MAX;
};

struct CompiledCase {
  std::vector<Decoded> code;
  std::vector<Memory> memories;
  std::vector<uint32_t> uav_slots;     // UAV buffer i is u<uav_slots[i]>
  uint32_t temp_slots = 0, slots = 0;  // register slots per lane
  uint32_t constant_base = 0;          // constants fill [constant_base, slots)
  // Pre-filled slots: constants (value per slot), and system values.
  std::vector<std::pair<uint32_t, uint32_t>> constants;  // slot, value
  uint32_t sv_thread_id = 0, sv_group_id = 0, sv_thread_in_group = 0,
           sv_flattened = 0, sv_zero = 0;
  std::array<uint32_t, 3> group_size = {1, 1, 1};
  std::array<uint32_t, 3> groups = {1, 1, 1};
  uint32_t tgsm_words = 0;
  uint32_t atomics = 0;  // atomic instructions (occurrences)
  std::vector<std::vector<uint32_t>>
      switch_values;  // per code index of a switch
  Inject inject = Inject::kNone;
  // Indexable temps: base slot and elements per x#.
  std::vector<std::pair<uint32_t, uint32_t>> xregs;
  // Pixel stage: the lanes (whole quads) and where their inputs live.
  bool pixel = false;
  bool per_sample = false;  // the shader reads SV_SampleIndex
  std::vector<PixelLaneInfo> pixel_lanes;
  uint32_t sv_position = 0, sv_sample = 0, sv_primitive = 0, sv_coverage = 0;

  // Back to a default CompiledCase, keeping the vectors' storage.
  void Clear();
};

// Tables only compiling needs, kept between cases like the CompiledCase:
// a campaign compiles case after case, and allocating them afresh each
// time was a fifth of the compile.
struct CompileTables {
  ConstantSlots constants;            // value -> slot
  MemorySlots uavs, tgsm;             // slot -> memory
  std::vector<uint32_t> compiled_of;  // program index -> code index
  isa::BlockPairs blocks;             // the program's block pairing
  std::vector<uint32_t> control;      // program indices of control flow
};

// Compiles `c` into `out`, overwriting it and reusing its storage and
// that of `tables`. InvalidArgument for anything this executor will not
// run (sizes beyond its caps, unbalanced control flow); the message is
// user-facing, and `out` is then unusable.
absl::Status Compile(const isa::Case& c, Inject inject, CompileTables& tables,
                     CompiledCase& out);

// Compile's last step (jumps.cc), for a program with control flow: fills in
// the jump targets and switch labels of `out` from `tables`' compiled_of
// and control (the program indices of its control instructions).
absl::Status ResolveJumps(const std::vector<isa::Instruction>& program,
                          CompileTables& tables, CompiledCase& out);

}  // namespace atomfuzz::targets::fast

#endif  // ATOMFUZZ_TARGETS_FAST_COMPILED_H_
