// Many cases in one dispatch, so that one shader compile serves them all
// (issue 6). Pure isa: any target can run the combined case, and
// SplitBatchOutcome gives each case back the outcome it would have had
// alone.
//
// Cases of one batch share their thread-group size. The dispatch is
// (max X, max Y, sum Z) groups; case i owns the groups whose z lies in
// [base_i, base_i + Z_i). A uniform binary tree of if/else on
// vThreadGroupID.z picks the case (no division, depth log2 N, and every
// case's code starts from the state before the tree, so the validator's
// uniformity analysis sees each case as it saw it alone: spec 2.2, E-30).
// The leaf puts the case's own vThreadGroupID and vThreadID in two fresh
// temps (every read of those inputs in the case's code reads them instead),
// returns at once in a group past the case's X or Y extent, then runs the
// case's code, which ends in its ret. Every u# and x# gets a slot of its
// own; g# slots are shared where the declarations match, since a group runs
// only one case and TGSM is undefined at group start (spec 1.8).
#ifndef ATOMFUZZ_TARGETS_CASE_BATCH_H_
#define ATOMFUZZ_TARGETS_CASE_BATCH_H_

#include <array>
#include <compare>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "isa/case_file.h"
#include "isa/outcome.h"

namespace atomfuzz::targets {

// What cases must agree on to share a dispatch.
struct BatchKey {
  std::array<uint32_t, 3> group_size = {1, 1, 1};
  uint16_t global_flags = 0;
  auto operator<=>(const BatchKey&) const = default;
};

// The key, or nullopt for a case that always runs alone: one without a
// dcl_thread_group, or one that declares the w component of vThreadID or
// vThreadGroupID (the leaf's temps use it).
std::optional<BatchKey> BatchKeyOf(const isa::Case& c);

// What one combined case may hold. The defaults are the spec's and the
// validator's; a target lowers them to what its device takes.
struct BatchLimits {
  uint32_t max_cases = 64;
  uint32_t max_uavs = isa::kMaxUavSlot + 1;  // u0..u63 (spec 1.1)
  uint32_t max_descriptors = 128;            // UAVs plus their counters
  uint64_t max_words = uint64_t{1} << 24;    // all UAV words together
  uint32_t max_tgsm_bytes = 32768;           // per group (spec 1.8)
  uint32_t max_temps = 4096;  // temps plus indexable temps (spec 1.8)
  uint32_t max_instructions = 1u << 14;
  uint32_t max_group_z = 65535;  // per dispatch dimension (spec 1.8)
  // The validator's uniformity analysis gives up deeper than this
  // (isa/control_flow_check.cc) and would reject every sync_*_t.
  uint32_t max_depth = 64;
  // Costs of a target's compiler that grow faster than the code: memory
  // instructions (loads, stores, atomics) and barriers (sync_*_t) in all.
  uint32_t max_memory_ops = UINT32_MAX;
  uint32_t max_barriers = UINT32_MAX;
};

// Where one case lives in the combined case.
struct BatchSlice {
  // (the case's slot, the combined slot), in the case's slot order.
  std::vector<std::pair<uint32_t, uint32_t>> uavs;
  std::vector<std::pair<uint32_t, uint32_t>> tgsm;
  uint32_t first_group_z = 0;  // vThreadGroupID.z of its first groups
  uint32_t group_z = 0;        // how many z it owns
  // Its code: the case's instruction first_code is the combined one
  // first_instruction, and so on for code_length instructions.
  uint32_t first_code = 0;
  uint32_t first_instruction = 0;
  uint32_t code_length = 0;
};

struct Batch {
  isa::Case combined;
  std::vector<BatchSlice> slices;  // one per case, in the order added
};

// Collects cases while they fit. Cases must be valid (isa::Validate) and
// outlive the builder.
class BatchBuilder {
 public:
  explicit BatchBuilder(const BatchLimits& limits = {}) : limits_(limits) {}

  // Adds `c` when it has the batch's key and everything still fits within
  // the limits; otherwise returns false and changes nothing.
  bool Add(const isa::Case& c);
  size_t size() const { return cases_.size(); }

  // The combined case, checked by isa::Validate (Internal if it fails: a
  // bug of this file), and the slices.
  absl::StatusOr<Batch> Build() const;

 private:
  BatchLimits limits_;
  std::optional<BatchKey> key_;
  std::vector<const isa::Case*> cases_;
  // The combined g# declarations by slot: {op, bytes or stride, count}.
  std::vector<std::array<uint32_t, 3>> tgsm_;
  uint32_t uavs_ = 0, descriptors_ = 0, temps_ = 0, indexable_ = 0;
  uint32_t instructions_ = 0, group_z_ = 0, depth_ = 0, memory_ops_ = 0,
           barriers_ = 0;
  uint64_t words_ = 0;
};

// All of `cases` in one batch: FailedPrecondition naming the first case
// that does not fit.
absl::StatusOr<Batch> BatchCases(absl::Span<const isa::Case* const> cases,
                                 const BatchLimits& limits = {});

// Each case's outcome from the combined one: status and message as they
// are, the case's UAVs under its own slots, and the trace events of its
// groups and code, in its own instruction indices, group ids and slots.
std::vector<isa::Outcome> SplitBatchOutcome(isa::Outcome combined,
                                            const Batch& batch);

}  // namespace atomfuzz::targets

#endif  // ATOMFUZZ_TARGETS_CASE_BATCH_H_
