// The generator's state and phases, shared by its files (internal to fuzz/):
//   generator.cc          phases, declarations, the finished Case
//   generate_memory.cc    dispatch, UAVs, g#, counters, initial contents
//   generate_program.cc   statement mix, control flow, barriers, g# fill and
//                         copy-out, result stores
//   generate_access.cc    atomics, counters, loads, stores, ALU statements
//   generate_operands.cc  addresses: aliasing shapes and address classes
//   generate_values.cc    values and comparands
//   generate_pixel.cc     ps_5_0: the draw, inputs, ids from SV_Position
//   generate_pixel_code.cc  ps_5_0 statements: discard, derivatives
//
// Register plan, fixed so that phases need not negotiate:
//   r0  ids: .x flat thread id in the group, .y linear group id, .z linear
//       thread id in the dispatch, .w unique per (thread, loop iteration)
//   r1  address coordinates (.xyz) and their linear word (.w)
//   r2  .x value, .y comparand, .z condition, .w temporary
//   r3  loop counters, one component per nesting depth
//   r4+ results: returned and loaded values, stored to the output UAV
// In a pixel program (docs/pixel-stage.md) r0 holds the same roles over
// the quads' pixels: .x the pixel (y * W + x, W the framebuffer's width
// rounded up to whole quads), .y the primitive (0 without SV_PrimitiveID),
// .z unique per invocation (pixel, sample, primitive), .w as above.
#ifndef ATOMFUZZ_FUZZ_GENERATE_GENERATOR_INTERNAL_H_
#define ATOMFUZZ_FUZZ_GENERATE_GENERATOR_INTERNAL_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"
#include "fuzz/generate/choices.h"
#include "fuzz/generate/policy.h"
#include "isa/case_file.h"
#include "isa/coverage.h"
#include "isa/program.h"

namespace atomfuzz::fuzz::gen {

// Bumped whenever the same seed and policy make a different case; recorded
// in [metadata] and pinned by the golden test (tests/fuzz/generator_test.cc).
inline constexpr int kGeneratorVersion = 2;

inline constexpr uint32_t kIds = 0, kAddr = 1, kVal = 2, kLoops = 3,
                          kFirstResult = 4;
inline constexpr uint8_t kX = 0, kY = 1, kZ = 2, kW = 3;
// Caps the output UAV well below the case format's 2^22 words, whatever
// a policy's limits multiply to.
inline constexpr uint64_t kMaxOutputWords = 1u << 20;

// A memory the program accesses: a target UAV or a g#.
struct Target {
  isa::TargetKind kind = isa::TargetKind::kUavRaw;
  bool tgsm = false;
  uint32_t slot = 0;
  // Address coordinates in the operand's order (spec 1.2), each with its
  // extent in words: raw {words}; structured {elements, stride / 4}; typed
  // {width, height or slices, depth or slices}. The byte coordinate (raw .x,
  // structured .y) is scaled by 4 when it is emitted.
  int coords = 1;
  std::array<uint32_t, 3> extent = {1, 1, 1};
  int byte_coord = -1;  // -1 for typed
  uint32_t words = 0;   // total
  // Initial contents as a formula where one exists (zero, constant, ramp:
  // base + step * word), so that comparands can match them (E-5, E-6).
  bool formula = true;
  uint32_t init_base = 0, init_step = 0;
  int resource = -1;  // u#: index into Case::resources (its init words)
  std::optional<isa::Rmw> counter;  // the one counter op it takes (E-37)
  bool tgsm_initialized = false;
  bool glc = false, opc = false;  // u# declaration flags (E-35, spec 1.6)

  bool structured() const {
    return kind == isa::TargetKind::kUavStructured ||
           kind == isa::TargetKind::kTgsmStructured;
  }
  bool typed() const { return byte_coord < 0; }
  uint32_t stride_words() const { return structured() ? extent[1] : 1; }
  uint8_t memory_bit() const {  // isa::MemoryBit
    switch (kind) {
      case isa::TargetKind::kUavRaw: return isa::kUavRaw;
      case isa::TargetKind::kUavStructured: return isa::kUavStructured;
      case isa::TargetKind::kTgsmRaw: return isa::kTgsmRaw;
      case isa::TargetKind::kTgsmStructured: return isa::kTgsmStructured;
      default: return isa::kUavTyped;
    }
  }
};

// A value kept in a result register, stored to the output UAV at the end.
struct Result {
  uint32_t reg = kFirstResult;
  uint8_t comp = kX;
  // Written by every thread where the program continues, from an access
  // that is in bounds by construction: usable to form later addresses.
  bool safe = false;
};

// Where an address ended up.
struct Address {
  isa::Operand operand;          // atomics, typed loads and stores
  isa::Operand index, offset;    // structured loads and stores: separately
  bool in_bounds = false;        // by construction
  std::optional<uint32_t> word;  // every thread hits this known word
  bool linear = false;           // r1.w holds the word (in bounds only)
};

// An address under construction (generate_operands.cc), coordinate k in
// words: the source's bits in r1.<perm[k]> when reg[k], plus add[k].
struct AddressPlan {
  std::optional<isa::Operand> source;  // thread-dependent; none: one word
  uint32_t shift = 0;                  // source bits used so far
  std::array<uint8_t, 3> perm = {0, 1, 2};
  int edge = 0;  // the coordinate an address class moves
  std::array<bool, 3> reg = {false, false, false};
  std::array<uint32_t, 3> add = {0, 0, 0};
  uint32_t misalign = 0;  // bytes added to the byte coordinate (E-13)

  bool AnyReg() const { return reg[0] || reg[1] || reg[2]; }
};

// A value operand, and how it varies per thread when that is affine.
struct ValueOperand {
  isa::Operand operand;
  uint32_t thread_step = 0;  // value(id + 1) - value(id), or 0
};

class Builder {
 public:
  Builder(Choices& choices, const Policy& policy) : c_(choices), p_(policy) {}
  isa::Case Build();

 private:
  // ---- generator.cc ----
  std::vector<isa::Instruction> Declarations() const;
  void Metadata();
  void DeclareUavs(std::vector<isa::Instruction>& out) const;

  // ---- generate_memory.cc ----
  void ChooseDispatch();
  void ChooseMemories();
  void AddUav(isa::TargetKind kind, uint32_t slot);
  void AddTgsm(isa::TargetKind kind, uint32_t slot);
  void FillInit(isa::Resource& r, Target& t);
  uint32_t CounterInit(isa::Rmw op);
  void AddOutputUav();

  // ---- generate_program.cc ----
  void Prologue();
  void FillTgsm();
  void Block(uint32_t depth, uint32_t count);
  void Statement(uint32_t depth);
  void If(uint32_t depth);
  void Loop(uint32_t depth);
  void Switch(uint32_t depth);
  uint32_t BodySize() {
    return c_.InRange(1, std::max<uint32_t>(1, p_.max_block_statements));
  }
  // `barrier`: a thread barrier with the g# fence (before g# is read).
  void Sync(bool barrier);
  isa::Operand Condition(bool divergent);
  void CopyTgsm();
  void StoreResults();
  // Fills a g# (no copy_base) or copies it to the output UAV from word
  // *copy_base on, each thread a share or thread 0 all of it.
  void WordLoop(const Target& t, bool one_thread,
                std::optional<uint32_t> copy_base);
  isa::OperandList WordOperands(const Target& t, uint32_t k);
  void FillWord(const Target& t, uint32_t k);
  void CopyWord(const Target& t, uint32_t k, uint32_t base);

  // ---- generate_pixel.cc ----
  void ChooseDraw();
  void ChooseInputs();
  void AddReadOnlyUav();
  void SizePerPixel(isa::Resource& r, Target& t);
  void PixelPrologue();
  void PixelInputDeclarations(std::vector<isa::Instruction>& out) const;
  isa::Operand PixelId();
  isa::Operand InputComponent(uint32_t reg, uint8_t comp) const;  // v#.c
  isa::Operand Position(uint8_t comp) const;  // v#.x or v#.y
  isa::Operand CoverageMask() const;          // vCoverage.x
  // Where the pixel's own word is (y * W + x, or (x, y) on 2D), if `t`
  // holds every pixel of the quads; nullopt otherwise.
  std::optional<Address> PositionAddress(const Target& t);

  // ---- generate_pixel_code.cc ----
  void PixelStatement(uint32_t depth);
  void Discard();
  // r2.z = `src` compared with a constant in [0, range], or a low bit of it.
  isa::Operand Compare(isa::Operand src, uint32_t range);
  // A condition in r2.z that is defined in every lane, helpers included.
  isa::Operand DiscardTest();
  void Derivative(uint32_t depth);
  // Whether a derivative of SV_Position emitted here is defined in the
  // oracle's runs, so that a condition or an address may read it.
  bool DerivativesDefined() const;
  // ftoi(deriv_rt*(SV_Position.x or .y)) into r2.w: 1.0 or 0.0 as an int.
  void PositionDerivative();
  void DerivativeAtomic();

  // ---- generate_access.cc ----
  void Atomic();
  // The atomic `op` on `t` at `a`, with its value, comparand and dst0.
  void EmitAtomic(isa::Op op, Target& t, const Address& a,
                  ComparandClass cmp_cls);
  void EmitLoad(const Target& t, const Address& a, isa::Operand dest);
  // An atomic (no counter) that memory kind `memory_bit` supports.
  std::optional<isa::Op> PickAtomicOpFor(uint8_t memory_bit);
  void CounterAtomic(isa::Op op, Target& t);
  std::optional<isa::Operand> AliasDst0(const Address& a,
                                        const ValueOperand& v);
  void Load();
  void Store();
  void Alu();
  std::optional<isa::Op> PickAtomicOp();
  Target* PickTarget(uint8_t memory_bits, std::optional<isa::Rmw> counter);
  AddressClass PickAddressClass(const Target& t);

  // ---- generate_operands.cc ----
  Address BuildAddress(const Target& t, AddressClass cls, bool want_linear);
  AddressPlan PlanAddress(const Target& t, AddressClass cls);
  int EdgeCoordinate(const Target& t, AddressClass cls);
  void ExtractBits(const Target& t, bool replaced, AddressPlan& plan);
  void MoveToEdge(const Target& t, AddressClass cls, AddressPlan& plan);
  void LinearWord(const Target& t, const AddressPlan& plan, bool want_linear,
                  Address& a);
  std::array<uint32_t, 3> FinishCoordinates(const Target& t,
                                            const AddressPlan& plan);
  void AddressOperands(const Target& t, const AddressPlan& plan,
                       const std::array<uint32_t, 3>& imm, Address& a);
  isa::Operand Id();
  isa::Operand UniqueId();
  uint32_t InterestingValue();
  const Result* PickResult(bool safe_only);

  // ---- generate_values.cc ----
  // The value computed into r2.<comp> (or an immediate, or a result).
  ValueOperand Value(isa::Rmw rmw, ValueClass cls, uint8_t comp);
  isa::Operand Comparand(const Target& t, const Address& a,
                         const ValueOperand& v, ComparandClass cls);

  // ---- helpers (generator.cc) ----
  void Emit(isa::Op op, absl::Span<const isa::Operand> operands,
            uint8_t sync_flags = 0);
  bool Chance(uint32_t per_mille) { return c_.PerMille(per_mille); }
  template <size_t N>
  size_t Pick(const std::array<uint32_t, N>& weights) {
    return c_.Weighted(weights);
  }
  // One of `ops`, in proportion to the policy's op weights.
  isa::Op PickOp(std::initializer_list<isa::Op> ops);
  int NewResult();  // index into results_, or -1
  bool Divergent() const { return divergent_depth_ > 0; }
  // Whether every thread of every group runs what is emitted now: not in a
  // branch (loops run at least once).
  bool Everywhere() const { return branch_depth_ == 0 && !Divergent(); }

  Choices& c_;
  const Policy& p_;
  isa::Case case_;

  std::array<uint32_t, 3> group_size_ = {1, 1, 1};
  uint32_t group_threads_ = 1;  // x * y * z
  uint32_t groups_ = 1;         // product of the dispatch
  uint32_t total_threads_ = 1;

  // Inline (a case has a few memories and results): one case is built per
  // fuzzing iteration, and every growth was an allocation.
  absl::InlinedVector<Target, 8> targets_;  // UAVs and g#, in order made
  uint32_t uav_count_ = 0;
  uint32_t output_slot_ = 0;
  uint32_t output_words_ = 0;  // laid out as the epilogue stores

  std::vector<isa::Instruction> code_;
  absl::InlinedVector<Result, 16> results_;
  std::array<uint32_t, 4> result_regs_used_ = {0, 0, 0, 0};  // per component
  uint32_t loop_depth_ = 0;                                  // enclosing loops
  uint32_t divergent_depth_ = 0;  // enclosing blocks with divergent conditions
  uint32_t branch_depth_ = 0;     // enclosing if/switch, uniform ones too
  // A divergent block was emitted: threads' paths may differ from here on,
  // even after their blocks end (the oracle compares whole paths before a
  // derivative, docs/pixel-stage.md P.5).
  bool diverged_ = false;
  uint32_t salt_ = 0;  // makes values of different atomics differ

  // ---- the pixel stage (generate_pixel.cc) ----
  bool pixel_ = false;
  // The framebuffer rounded up to whole quads: helpers past an odd edge
  // get pixel indices of their own.
  uint32_t width_ = 1, height_ = 1;
  uint32_t runs_ = 1;  // samples the shader runs per pixel (SV_SampleIndex)
  uint32_t position_reg_ = 0;
  uint8_t position_mask_ = 0x3;
  std::optional<uint32_t> primitive_reg_, sample_reg_;
  bool coverage_ = false;  // vCoverage declared (pixel frequency only)
  bool helpers_ = true;    // some quad has a helper lane (HasHelperLanes)
  std::optional<Target> read_only_;  // a raw UAV only loaded, per pixel
};

// Largest power of two <= n (n >= 1), and its log2.
uint32_t FloorPow2(uint32_t n);
int Log2(uint32_t pow2);

// Operand shorthands (inline, as isa::Temp: hundreds a case).
inline isa::Operand Dst(uint32_t reg, uint8_t comp) {
  return isa::Temp(reg, isa::Selection::kMask,
                   static_cast<uint8_t>(1u << comp));
}
inline isa::Operand Src(uint32_t reg, uint8_t comp) {
  return isa::Temp(reg, isa::Selection::kSelect1, comp);
}
isa::Operand Swizzle(uint32_t reg, std::array<uint8_t, 4> swizzle);

}  // namespace atomfuzz::fuzz::gen

#endif  // ATOMFUZZ_FUZZ_GENERATE_GENERATOR_INTERNAL_H_
