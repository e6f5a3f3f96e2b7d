// What the case generator (fuzz/generate/generator.h) aims at, as pure data:
// limits and weights, like YARPGen's GenPolicy (style guide 5). The generator
// holds no probability of its own; every choice it makes reads a field here, so
// a preset can steer it at an edge case of the spec without touching its code.
//
// Conventions. Weights are relative (0 = never); per-mille fields are chances
// out of 1000. Every enum lists its simplest member first, because a draw of
// 0 (ByteChoices out of bytes) picks the first non-zero weight and says "no"
// to every per-mille: an empty input gives the smallest, simplest case.
#ifndef ATOMFUZZ_FUZZ_GENERATE_POLICY_H_
#define ATOMFUZZ_FUZZ_GENERATE_POLICY_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "isa/coverage.h"
#include "isa/opcode_table.h"
#include "isa/program.h"

namespace atomfuzz::fuzz {

// Where an address points (spec 1.2, 1.3, 6.B). Classes that do not apply to
// a memory (an index wrap on a raw buffer) fall back to kInBounds.
enum class AddressClass : uint8_t {
  kInBounds,          // a word the aliasing shape picks
  kLastValid,         // E-12, E-14, E-18: the last word, struct or coordinate
  kFirstOutOfBounds,  // E-12, E-14, E-18..E-20: one past the end (SKIP)
  kHuge,              // E-12, E-18: 0xfffffffc, >= 2^31 (SKIP, 64-bit bounds)
  kIndexWrap32,       // E-17: struct index * stride wraps 32 bits into range
  kOffsetPastStride,  // E-14: structured byte offset >= stride (POISON)
  kMisaligned,        // E-13: a byte offset that is not a multiple of 4
  kFromReturn,        // a value an earlier atomic returned, masked in range
};
inline constexpr int kAddressClassCount = 8;

// How many threads share a word (spec 2.1; E-25, E-26).
enum class Aliasing : uint8_t {
  kAllThreadsOneWord,  // every thread (of the dispatch; of the group on g#)
  kThreadsPerWord,     // 2^k neighbouring threads per word
  kOneWordPerThread,   // a word per thread, wrapping where memory is small
  kOneWordPerGroup,    // the threads of a group share a word
};
inline constexpr int kAliasingCount = 4;

// Values of atomics and stores.
enum class ValueClass : uint8_t {
  kConstant,      // one of interesting_values, the same in every thread
  kTraceable,     // distinct per thread, shaped by the operation: powers of
                  // two (iadd), one-hot bits (and/or/xor), unique (exch,
                  // cmp, min/max), so the judge rebuilds orders directly
  kThreadLinear,  // id * step + base
  kSignedMix,     // E-2: negative and positive extremes, sign by thread
  kNearWrap,      // E-1: close below 0xffffffff (iadd overflow)
  kFromReturn,    // what an earlier atomic returned
  kRandom,        // any word
};
inline constexpr int kValueClassCount = 7;

// The comparand of cmp_exch / cmp_store (E-5, E-6); the value stays distinct.
enum class ComparandClass : uint8_t {
  kValue,        // drawn like a value: rarely equal to the word
  kMatchesInit,  // the word's initial value: the first compare succeeds
  kChain,        // the value the thread before would store (E-26 chains)
};
inline constexpr int kComparandClassCount = 3;

// Initial contents of a UAV, a g# (stored by the program) or a counter.
enum class InitClass : uint8_t {
  kZero,
  kRamp,         // base, base + step, ... (g# from kInteresting and kRandom
                 // too: the program stores a formula)
  kConstant,     // one interesting value everywhere
  kInteresting,  // an interesting value per word
  kRandom,       // any word per word
};
inline constexpr int kInitClassCount = 5;

// Thread-dependent operands: where ids come from (spec 1.9).
enum class IdSource : uint8_t {
  kFlat,         // vThreadIDInGroupFlattened
  kGroup,        // the group's linear index (uniform in the group)
  kGlobal,       // the thread's linear index in the dispatch
  kSystemValue,  // a component of vThreadID or vThreadIDInGroup, read directly
};
inline constexpr int kIdSourceCount = 4;

// What a statement of the program is.
enum class StatementKind : uint8_t {
  kAtomic,
  kAlu,
  kLoad,
  kStore,
  kIf,
  kLoop,
  kSwitch,
  kSync,
};
inline constexpr int kStatementKindCount = 8;

// The valid sync variants of a compute shader (spec 2.2; E-32 and E-33 are
// not among them), indexing Policy::sync_weights.
inline constexpr std::array<uint8_t, 10> kSyncVariants = {
    isa::kSyncTgsm,
    isa::kSyncUavGroup,
    isa::kSyncUavGlobal,
    isa::kSyncUavGroup | isa::kSyncTgsm,
    isa::kSyncUavGlobal | isa::kSyncTgsm,
    isa::kSyncTgsm | isa::kSyncThreads,
    isa::kSyncUavGroup | isa::kSyncThreads,
    isa::kSyncUavGlobal | isa::kSyncThreads,
    isa::kSyncUavGroup | isa::kSyncTgsm | isa::kSyncThreads,
    isa::kSyncUavGlobal | isa::kSyncTgsm | isa::kSyncThreads,
};

// What a statement of a pixel program is (docs/pixel-stage.md): the
// compute kinds without sync, plus discard (P.3) and derivatives (P.5).
enum class PixelStatementKind : uint8_t {
  kAtomic,
  kAlu,
  kLoad,
  kStore,
  kIf,
  kLoop,
  kSwitch,
  kDiscard,
  kDerivative,
};
inline constexpr int kPixelStatementKindCount = 9;

// What a discard's condition reads. Each is defined in every lane,
// helpers included, where the generator uses it: a condition on an
// undefined value makes the rest of the run unknowable (spec 6.0, P.3).
enum class DiscardCondition : uint8_t {
  kPosition,    // bits or a range of ftou(SV_Position)
  kPrimitive,   // SV_PrimitiveID (uniform in a quad)
  kSample,      // SV_SampleIndex (per-sample runs)
  kCoverage,    // a bit of vCoverage: only where no quad has a helper
  kLoaded,      // a word of a UAV that nothing writes
  kDerivative,  // ftoi(deriv_rt*(SV_Position)), 1 or 0: uniform flow only
};
inline constexpr int kDiscardConditionCount = 6;

// What a derivative of SV_Position feeds.
enum class DerivativeUse : uint8_t {
  kValue,      // a result stored to the output UAV
  kAddress,    // the word of an atomic (ftoi of d/dx of x is 1)
  kCondition,  // an if around a block, or a discard
};
inline constexpr int kDerivativeUseCount = 3;

// The pixel stage's part of a policy: the draw and the inputs (P.1, P.2).
// Compute policies leave it alone; a pixel policy also keeps the compute
// fields that apply to both stages (memories, values, addresses, blocks).
struct PixelPolicy {
  // The framebuffer: small, so that quads are few and the judge is quick;
  // odd sides leave quads hanging off the edge (their helpers lie outside).
  uint32_t min_side = 2;
  uint32_t max_side = 16;
  uint32_t odd_side_per_mille = 400;
  uint32_t four_samples_per_mille = 400;  // else 1 sample
  uint32_t max_triangles = 4;
  // A bound on isa::ThreadCount (quad pixels x samples x triangles): it
  // times the instructions is the work the mutator's limits bound
  // (case_limits.h), so mutants of these cases stay within them.
  uint32_t max_invocations = 128;
  uint32_t overlap_per_mille = 300;  // a triangle over an earlier one
  // A triangle's vertices are moved this often until no sample lies on an
  // edge (isa::ClearMarginProblem); then a simpler one is used.
  uint32_t nudge_tries = 8;
  uint32_t cover_all_per_mille = 30;        // the whole framebuffer
  uint32_t right_triangle_per_mille = 300;  // axis-aligned legs

  // Inputs (P.2). SV_Position is always read: ids and addresses come from it.
  uint32_t primitive_id_per_mille = 250;        // one triangle
  uint32_t primitive_id_multi_per_mille = 800;  // several: ids stay unique
  uint32_t sample_index_per_mille = 200;        // per-sample shading
  uint32_t coverage_per_mille = 350;            // vCoverage (pixel frequency)
  uint32_t coverage_value_per_mille = 150;      // an atomic's value is it

  // Memory.
  uint32_t per_pixel_uav_per_mille = 400;     // raw/typed sized to the quads
  uint32_t position_address_per_mille = 350;  // word (y * W + x), or (x, y)
  uint32_t read_only_uav_per_mille = 300;     // loaded for discard conditions

  std::array<uint32_t, kPixelStatementKindCount> statement_weights = {
      // atomic, alu, load, store, if, loop, switch, discard, derivative
      55, 5, 5, 4, 8, 5, 4, 12, 8};
  std::array<uint32_t, kDiscardConditionCount> discard_condition_weights = {
      30, 10, 10, 15, 15, 10};
  std::array<uint32_t, kDerivativeUseCount> derivative_use_weights = {3, 4, 4};
  uint32_t discard_nz_per_mille = 500;  // else discard_z
  // A derivative's condition discards, else it guards a block.
  uint32_t derivative_discard_per_mille = 400;
};

// The op weights a policy starts from, by the table's families: atomics of
// every kind, then loads and stores, then ALU and control-flow forms.
std::array<uint32_t, isa::kOpCount> DefaultOpWeights();

struct Policy {
  std::string name = "default";  // as PolicyByName knows it
  // cs_5_0 dispatches or ps_5_0 draws; `pixel` serves only the latter.
  isa::Stage stage = isa::Stage::kCompute;
  PixelPolicy pixel;

  // ---- Dispatch (spec 1.8) ----
  // Small by default: the judge's time grows with threads x instructions,
  // and cases this size find every injected bug of the fast target within
  // about a thousand cases. Throughput finds the rest. Mutants keep to
  // these bounds too, unless their parent was already past them.
  uint32_t max_groups = 4;  // product of the three group counts
  uint32_t multi_dim_groups_per_mille = 150;
  uint32_t max_group_threads = 16;  // x * y * z
  // Swarm over the dispatch size: this share of cases is small (at most
  // small_max_groups x small_max_group_threads). Every injected bug of the
  // fast target reproduces with one or two threads, two groups suffice for
  // inter-group races, and the judge's cost grows with the threads, so small
  // cases buy several times the cases per second; the rest keep the full
  // size for bugs that need many threads on one word.
  uint32_t small_dispatch_per_mille = 700;
  uint32_t small_max_groups = 2;
  uint32_t small_max_group_threads = 4;
  uint32_t pow2_threads_per_mille = 500;
  uint32_t multi_dim_threads_per_mille = 200;

  // ---- Memories (spec 1.1, 1.2, 1.8) ----
  uint32_t max_memories = 3;  // atomic targets; the output UAV is extra
  uint32_t max_tgsm = 2;      // of those, at most this many g#
  std::array<uint32_t, isa::kTargetKindCount> memory_weights = {
      // u-raw, u-struct, u-buffer, u-tex1d, u-tex1darr, u-tex2d,
      // u-tex2darr, u-tex3d, g-raw, g-struct
      30, 25, 8, 5, 6, 10, 8, 8, 18, 14};
  uint32_t max_raw_words = 32;
  uint32_t max_stride_words = 4;                   // structured u# and g#
  uint32_t max_elements = 8;                       // structured u#
  uint32_t max_tgsm_words = 16;                    // raw g#
  uint32_t max_tgsm_elements = 8;                  // structured g#
  std::array<uint32_t, 3> max_extent = {8, 4, 4};  // typed: x, y, z/slices
  uint32_t sint_per_mille = 400;     // typed views R32_SINT, else R32_UINT
  uint32_t glc_per_mille = 200;      // dcl_uav_*_glc (E-35)
  uint32_t counter_per_mille = 300;  // structured u# with a hidden counter
  uint32_t consume_per_mille = 500;  // its one counter op: consume, else alloc
  uint32_t counter_wrap_per_mille = 600;  // E-36: consume from near 0,
                                          // alloc from near 0xffffffff
  uint32_t opc_per_mille = 300;           // _opc on a UAV with a counter
  std::array<uint32_t, kInitClassCount> init_weights = {15, 35, 25, 15, 10};
  uint32_t max_ramp_step = 4;
  // Constants for values, inits and comparands (E-1, E-2, E-4).
  std::vector<uint32_t> interesting_values = {
      0,          1,          2,          0xffffffff, 0xfffffffe,
      0x80000000, 0x7fffffff, 0x80000001, 0x0000ffff, 0xffff0000,
      0xaaaaaaaa, 0x55555555, 0x0f0f0f0f, 0xf0f0f0f0, 0x12345678,
      0xfffffff0, 100,        0x3f800000, 0x7fc00000, 0xdeadbeef};
  uint32_t tgsm_init_one_thread_per_mille = 400;  // thread 0 fills g#
  uint32_t tgsm_uninitialized_per_mille = 20;     // E-22: left undefined
  uint32_t copy_tgsm_per_mille = 950;  // g# copied to the output UAV at the end

  // ---- Program shape ----
  uint32_t max_statements = 6;        // at the top level
  uint32_t max_block_statements = 2;  // in an if, loop or case body
  uint32_t max_depth = 2;             // nested blocks (at most 4)
  uint32_t max_loop_iterations = 3;
  std::array<uint32_t, kStatementKindCount> statement_weights = {
      // atomic, alu, load, store, if, loop, switch, sync
      60, 6, 6, 4, 8, 6, 4, 6};
  std::array<uint32_t, isa::kOpCount> op_weights = DefaultOpWeights();
  uint32_t divergent_condition_per_mille = 700;  // if/switch on thread ids
  uint32_t else_per_mille = 400;
  uint32_t divergent_loop_per_mille = 400;  // trip count differs per thread
  uint32_t default_case_per_mille = 500;
  std::array<uint32_t, kSyncVariants.size()> sync_weights = {3,  2, 3, 1, 1,
                                                             10, 5, 8, 3, 4};
  uint32_t max_results = 8;  // returned and loaded values kept in registers
  uint32_t store_results_per_mille = 980;  // results go to the output UAV
  uint32_t append_store_per_mille = 400;   // store at the index alloc returns

  // ---- Addresses (spec 1.2, 1.3) ----
  std::array<uint32_t, kAddressClassCount> uav_address_weights = {
      // in, last, first-oob, huge, wrap32, past-stride, misaligned, return
      600, 80, 80, 40, 50, 15, 15, 40};
  // g# out of bounds or misaligned poisons all of the group's TGSM (E-21).
  std::array<uint32_t, kAddressClassCount> tgsm_address_weights = {
      900, 60, 5, 3, 3, 3, 3, 30};
  std::array<uint32_t, kAliasingCount> aliasing_weights = {30, 25, 35, 10};
  uint32_t max_threads_per_word_log2 = 3;
  // Which typed coordinate an edge class moves: y and z matter for 2D, 3D
  // and arrays (E-18, E-19).
  std::array<uint32_t, 3> edge_coordinate_weights = {2, 3, 3};
  uint32_t immediate_address_per_mille = 300;  // E-11: l(...) when constant
  uint32_t swizzled_address_per_mille = 250;   // E-10: r1.yxxx and the like

  // ---- Values ----
  // Keeps every word's history readable (spec 2.1): exchanges, compares
  // and xors, whose words can return to an earlier value, take values
  // unique per thread and iteration whatever value_weights say; only the
  // operations that move a word one way (iadd, and, or, min, max) take
  // repeated values. Off, the judge has to search (the untraceable preset).
  bool traceable = true;
  std::array<uint32_t, kValueClassCount> value_weights = {
      // const, traceable, linear, signed, near-wrap, return, random
      12, 50, 8, 12, 8, 5, 5};
  std::array<uint32_t, kComparandClassCount> comparand_weights = {3, 6, 2};
  std::array<uint32_t, 4> dst0_component_weights = {4, 2, 2, 2};  // E-9
  uint32_t dst0_alias_per_mille = 60;  // E-8: dst0 = the address register
  std::array<uint32_t, kIdSourceCount> id_source_weights = {4, 2, 4, 2};
  uint32_t wide_store_per_mille = 150;  // store masks .xy .. .xyzw
};

// The named presets: default (edge cases), untraceable (no traceable
// values: the judge must search), tgsm, counters, bounds, control, wide,
// and pixel (ps_5_0 draws: discards, derivatives, helper lanes).
std::vector<std::string> PolicyNames();
// InvalidArgument naming the known policies for an unknown name.
absl::StatusOr<Policy> PolicyByName(absl::string_view name);
// `policy` less `ops` (weight 0): neither generated nor mutated into, as a
// target's registry row asks of what it is known to refuse.
void WithoutOps(Policy& policy, const std::vector<isa::Op>& ops);
// `policy` without the sync variants (kSyncVariants' flags) in `variants`.
void WithoutSyncs(Policy& policy, const std::vector<uint8_t>& variants);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_GENERATE_POLICY_H_
