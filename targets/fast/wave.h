// A wave: lanes that execute one compiled instruction at a time in lockstep
// over a structure-of-arrays register file, with execution masks for
// divergent control flow. Normally a wave is one thread group, so sync_*_t
// needs no work: every live lane is at the same instruction.
#ifndef ATOMFUZZ_TARGETS_FAST_WAVE_H_
#define ATOMFUZZ_TARGETS_FAST_WAVE_H_

#include <array>
#include <cstdint>
#include <vector>

#include "isa/outcome.h"
#include "targets/fast/compiled.h"

namespace atomfuzz::targets::fast {

// Lane masks hold 0 or ~0 per lane so selects are branch-free (vectorizable).
using Mask = std::vector<uint32_t>;

// Makes `v` hold at least n elements, never fewer: a wave narrower than
// the last uses a prefix, and growing back within the old size needs no
// zero fill (resize's, which every user overwrote anyway).
template <class T>
void Ensure(std::vector<T>& v, size_t n) {
  if (v.size() < n) v.resize(n);
}

struct Frame {
  enum class Kind : uint8_t { kIf, kLoop, kSwitch };
  Kind kind = Kind::kIf;
  Mask parent;     // active lanes when the block was entered
  Mask taken;      // if: lanes in the true branch; switch: lanes that entered
  Mask broken;     // loop/switch: lanes that left with break
  Mask continued;  // loop: lanes waiting at continue for the next iteration
  Mask values;     // switch: the selector per lane
  uint32_t switch_values = 0;  // switch: index into CompiledCase::switch_values
};

// Memory shared by all waves of a run.
struct RunMemory {
  std::vector<std::vector<uint32_t>> uavs;  // by CompiledCase uav index
  std::vector<uint32_t> counters;           // by UAV index (0 if none)
};

struct Wave {
  const CompiledCase* cc = nullptr;
  RunMemory* memory = nullptr;
  uint32_t lanes = 0;
  std::vector<uint32_t> regs;  // slot * lanes + lane
  // The lane count whose constants regs holds (RunWave fills them); 0 when
  // it holds none for this run's case.
  uint32_t constant_lanes = 0;
  Mask active;
  Mask returned;
  // Pixel stage: lanes that are not helpers, lanes a discard took, and
  // room for the narrowed mask a memory instruction runs under.
  Mask covered, discarded, gated;
  std::vector<Frame> frames;  // grows on demand; `depth` in use
  size_t depth = 0;
  std::vector<uint32_t> tgsm;     // this wave's g# words
  std::vector<uint32_t> scratch;  // ALU buffering (8 * lanes: imul/umul)
  uint32_t pc = 0;
  // Set when every lane has returned, with over_budget, or when the trace is
  // full: the one flag the dispatch loop tests after each instruction.
  bool stop = false;
  // Per lane: vThreadGroupID and vThreadIDInGroup (for the trace).
  std::vector<std::array<uint32_t, 3>> lane_gid, lane_tid;
  std::vector<uint32_t> occurrences;  // atomic ordinal * lanes + lane
  // Loop iterations each lane started; past max_iterations the thread has
  // run more steps than its budget (every iteration takes one).
  std::vector<uint64_t> iterations;
  uint64_t max_iterations = UINT64_MAX;
  bool over_budget = false;
  std::vector<isa::AtomicEvent>* trace = nullptr;  // when recording
  // Events `trace` may hold before the wave stops as over budget: an
  // endless loop of atomics records an event per lane per step.
  size_t max_trace = SIZE_MAX;

  bool TraceFull() const {
    return trace != nullptr && trace->size() > max_trace;
  }
  uint32_t* Slot(uint32_t s) { return regs.data() + size_t{s} * lanes; }
  bool Any(const Mask& m) const {
    uint32_t any = 0;
    for (uint32_t l = 0; l < lanes; ++l) any |= m[l];
    return any != 0;
  }
  Frame& Push(Frame::Kind kind);
  Frame& Top() { return frames[depth - 1]; }
  void Pop() { --depth; }
  // Lanes disabled since `parent` by break/continue/ret of enclosing frames.
  void Restore(const Mask& parent);
};

// Fills a wave for `lanes` consecutive threads of the dispatch starting at
// global thread `first` (in a pixel case: consecutive pixel lanes, whole
// quads) (sysvals, constants, masks), then runs it to the end
// or the step budget. Returns false if the budget ran out (steps, a lane's
// max_iterations, or the trace's max_trace events).
bool RunWave(Wave& w, uint64_t first_thread, uint64_t max_steps);

}  // namespace atomfuzz::targets::fast

#endif  // ATOMFUZZ_TARGETS_FAST_WAVE_H_
