// The one description of every instruction atomfuzz knows (spec 1.4-1.9, 4.5).
// Assembler, printer, validator, and later the DXBC codec, oracle, executors
// and generator read these rows instead of keeping switches of their own.
#ifndef ATOMFUZZ_ISA_OPCODE_TABLE_H_
#define ATOMFUZZ_ISA_OPCODE_TABLE_H_

#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <span>

#include "absl/strings/string_view.h"
#include "isa/operand.h"

namespace atomfuzz::isa {

// Our own instruction ids, one per mnemonic (if_z and if_nz are two rows that
// share token opcode 31). The enum order is the table order.
enum class Op : uint8_t {
  // Integer ALU.
  kMov,
  kMovc,
  kIAdd,
  kINeg,
  kIMul,
  kUMul,
  kIMad,
  kUMad,
  kIShl,
  kIShr,
  kUShr,
  kAnd,
  kOr,
  kXor,
  kNot,
  kIEq,
  kINe,
  kILt,
  kIGe,
  kULt,
  kUGe,
  kIMax,
  kIMin,
  kUMax,
  kUMin,
  kBfi,
  kUbfe,
  kCountBits,
  // Control flow.
  kIfZ,
  kIfNz,
  kElse,
  kEndIf,
  kLoop,
  kEndLoop,
  kBreak,
  kBreakcZ,
  kBreakcNz,
  kContinue,
  kContinuecZ,
  kContinuecNz,
  kSwitch,
  kCase,
  kDefault,
  kEndSwitch,
  kRet,
  kRetcZ,
  kRetcNz,
  // Barriers and fences; the flags live in Instruction::sync_flags.
  kSync,
  // Non-atomic memory access (spec 1.7).
  kLdRaw,
  kStoreRaw,
  kLdStructured,
  kStoreStructured,
  kLdUavTyped,
  kStoreUavTyped,
  // Non-returning atomics (spec 1.4).
  kAtomicAnd,
  kAtomicOr,
  kAtomicXor,
  kAtomicCmpStore,
  kAtomicIAdd,
  kAtomicIMax,
  kAtomicIMin,
  kAtomicUMax,
  kAtomicUMin,
  // Counter atomics (spec 1.6).
  kImmAtomicAlloc,
  kImmAtomicConsume,
  // Immediate atomics (spec 1.5).
  kImmAtomicIAdd,
  kImmAtomicAnd,
  kImmAtomicOr,
  kImmAtomicXor,
  kImmAtomicExch,
  kImmAtomicCmpExch,
  kImmAtomicIMax,
  kImmAtomicIMin,
  kImmAtomicUMax,
  kImmAtomicUMin,
  // Declarations (spec 1.8, 3.2).
  kDclGlobalFlags,
  kDclUavRaw,
  kDclUavStructured,
  kDclUavTyped,
  kDclTgsmRaw,
  kDclTgsmStructured,
  kDclInput,
  kDclTemps,
  kDclIndexableTemp,
  kDclThreadGroup,
  // The pixel stage (docs/pixel-stage.md), after the compute rows so that
  // the numbers of older ops stay what corpora and coverage recorded.
  kFtoI,  // float to int and uint: SV_Position as an address
  kFtoU,
  kDiscardZ,
  kDiscardNz,
  kDerivRtx,
  kDerivRty,
  kDerivRtxCoarse,
  kDerivRtxFine,
  kDerivRtyCoarse,
  kDerivRtyFine,
  kDclInputPsSgv,
  kDclInputPsSiv,
};
inline constexpr int kOpCount = static_cast<int>(Op::kDclInputPsSiv) + 1;

// Consumers dispatch on the family first (DXVK's two-level dispatch).
enum class Family : uint8_t {
  kAlu,
  kControl,
  kSync,
  kLoad,
  kStore,
  kAtomic,
  kImmAtomic,
  kCounter,
  kDecl,
  kDiscard,  // discard_z/nz: the lane stops touching memory (pixel stage)
  kDeriv,    // deriv_rt*: a difference across the lane's 2x2 quad
};

// The read-modify-write an atomic performs. An enum, not a function: the oracle
// and the fast executor each implement it on their own (docs/architecture.md).
enum class Rmw : uint8_t {
  kNone,
  kIAdd,
  kAnd,
  kOr,
  kXor,
  kExch,
  kCmpExch,
  kIMax,
  kIMin,
  kUMax,
  kUMin,
  kAlloc,
  kConsume,
};

// How an operand is spelled, which decides how the assembler reads it.
enum class OperandKind : uint8_t {
  kEnd,          // terminates the operand list
  kDst,          // r#, x#[], null with a write mask
  kSrc,          // r#, x#[], l(), v* with a swizzle or one selected component
  kMem,          // u# or g# with no suffix: the target of an atomic
  kMemDst,       // u# or g# with a write mask: the target of a store
  kMemSrc,       // u# or g# with a swizzle: the source of a load
  kUav,          // u# with no suffix (counters, declarations)
  kTgsm,         // g# with no suffix (declarations)
  kInputDecl,    // a compute system value or vCoverage, optional mask
  kInputPsDecl,  // v# with a write mask (dcl_input_ps_sgv/_siv)
  kInputName,    // position, sampleIndex, primitive_id (a D3D10_SB_NAME)
  kNumber,       // a bare unsigned number in a declaration
  kIndexableTempDecl,  // x#[size] in dcl_indexableTemp
};

// What an operand means to the instruction.
enum class Role : uint8_t {
  kNone,
  kDest,
  kSecondDest,
  kReturn,
  kTarget,
  kAddress,
  kStructIndex,
  kByteOffset,
  kValue,
  kComparand,
  kSource,
  kCondition,
  kCaseValue,
  kDeclared,
  kCount,
};

// Memories an instruction may access (spec 1.1, 1.2), as a bit set.
enum MemoryBit : uint8_t {
  kUavRaw = 1 << 0,
  kUavStructured = 1 << 1,
  kUavTyped = 1 << 2,
  kTgsmRaw = 1 << 3,
  kTgsmStructured = 1 << 4,
};
inline constexpr uint8_t kAllMemories =
    kUavRaw | kUavStructured | kUavTyped | kTgsmRaw | kTgsmStructured;

// Suffix grammar after the mnemonic (spec 3.2, 3.3).
enum class Suffix : uint8_t {
  kNone,
  kSyncFlags,      // sync[_uglobal|_ugroup][_g][_t], and fxc's _sat spellings
  kGlc,            // dcl_uav_raw[_glc]
  kGlcOpc,         // dcl_uav_structured[_glc][_opc]
  kDimGlc,         // dcl_uav_typed_<dim>[_glc] (t,t,t,t)
  kIndexable,      // ld_*[_indexable(dim[, stride=N])(t,t,t,t)]
  kGlobalFlags,    // dcl_globalFlags a | b
  kInterpolation,  // dcl_input_ps_s?v <mode words> (constant, linear ...)
};

// How a control instruction shapes blocks (spec 3.1), and which block it
// belongs to: the columns every reader of nesting would otherwise re-derive
// from opcodes (isa/blocks.h pairs them once per program).
enum class BlockShape : uint8_t {
  kNone,      // not a block instruction (ret and retc included)
  kOpen,      // if_z, if_nz, loop, switch
  kMiddle,    // else
  kClose,     // endif, endloop, endswitch
  kLabel,     // case, default
  kBreak,     // break, breakc_*: leaves the innermost loop or switch
  kContinue,  // continue, continuec_*: to the innermost loop's start
};
enum class BlockKind : uint8_t { kNone, kIf, kLoop, kSwitch };

struct OperandSpec {
  OperandKind kind = OperandKind::kEnd;
  Role role = Role::kNone;
};

inline constexpr int kMaxOperands = 6;

struct OpcodeInfo {
  Op op;
  absl::string_view mnemonic;
  uint16_t token_opcode;  // D3D10_SB_OPCODE_TYPE value (spec 4.5)
  bool test_nonzero;      // the _nz form: bit 18 of the opcode token (4.2)
  Family family;
  Rmw rmw;
  uint8_t memories;  // MemoryBit set; 0 when no memory is touched
  Suffix suffix;
  std::array<OperandSpec, kMaxOperands> operands;
  absl::string_view spec_ref;
  BlockShape block = BlockShape::kNone;
  BlockKind block_kind =
      BlockKind::kNone;  // of kOpen..kLabel; kContinue: kLoop

  // Derived, never stored, so the count and the list cannot disagree.
  constexpr int operand_count() const {
    int n = 0;
    while (n < kMaxOperands && operands[n].kind != OperandKind::kEnd) ++n;
    return n;
  }
  constexpr bool returns_old() const {
    return family == Family::kImmAtomic || family == Family::kCounter;
  }
  constexpr bool is_atomic() const {
    return family == Family::kAtomic || family == Family::kImmAtomic ||
           family == Family::kCounter;
  }
  // Index of the first operand with this role, or -1.
  // One pass to the end marker (the validator asks this per instruction).
  constexpr int operand_with_role(Role r) const {
    for (int i = 0; i < kMaxOperands && operands[i].kind != OperandKind::kEnd;
         ++i) {
      if (operands[i].role == r) return i;
    }
    return -1;
  }
};

// Which register files an operand kind accepts, and how to ask for one. The
// assembler and the DXBC decoder both read operands by this rule.
struct OperandKindRule {
  bool temps;      // r#, x#[]
  bool null;       // null
  bool immediate;  // l(...)
  bool sysval;     // vThreadID..., v#, vCoverage
  bool uav;        // u#
  bool tgsm;       // g#
  const char* what;

  bool Accepts(RegFile f) const {
    switch (f) {
      case RegFile::kTemp:
      case RegFile::kIndexableTemp: return temps;
      case RegFile::kNull: return null;
      case RegFile::kImmediate: return immediate;
      case RegFile::kUav: return uav;
      case RegFile::kTgsm: return tgsm;
      case RegFile::kNumber: return false;
      default: return sysval && IsShaderInput(f);
    }
  }
};
OperandKindRule RuleFor(OperandKind kind);

inline constexpr int kRoleCount = static_cast<int>(Role::kCount) + 1;

// A row's operand list digested at compile time from `operands` (never
// written by hand), for the validator, which asks at every instruction and
// walk: operand_count() and operand_with_role() scan the list each time.
struct OperandLayout {
  uint8_t count = 0;
  uint8_t src_mask = 0;  // bit k: operand k is an OperandKind::kSrc
  uint8_t dst_mask = 0;  // bit k: operand k is an OperandKind::kDst
  std::array<int8_t, kRoleCount> role_index{};  // operand_with_role(r)

  int with_role(Role r) const { return role_index[static_cast<size_t>(r)]; }
  // Register destinations (2 for imul and umul) and sources.
  int destinations() const { return std::popcount(dst_mask); }
  int sources() const { return std::popcount(src_mask); }
};

namespace internal {
// The table's rows in Op order (opcode_table.cc checks it), visible here so
// that Info() inlines: interpreters ask for a row at every instruction.
extern const OpcodeInfo* const kOpcodeRows;
extern const OperandLayout* const kOperandLayouts;  // also in Op order
}  // namespace internal

// The row for an op. Never fails: every Op has a row.
inline const OpcodeInfo& Info(Op op) {
  return internal::kOpcodeRows[static_cast<int>(op)];
}
// The digest of Info(op).operands.
inline const OperandLayout& Layout(Op op) {
  return internal::kOperandLayouts[static_cast<int>(op)];
}
// The row with this token opcode (spec 4.5) and test form (_z / _nz), if
// any. `test_nonzero` only tells twins such as if_z and if_nz apart: a row
// without a twin is found whatever the flag.
const OpcodeInfo* FindTokenOpcode(uint16_t token_opcode, bool test_nonzero);
// All rows, in Op order.
std::span<const OpcodeInfo> AllOpcodes();
// The row whose mnemonic is exactly `mnemonic` (no suffixes), if any.
const OpcodeInfo* FindMnemonic(absl::string_view mnemonic);
// Short, stable name of a family, for diagnostics and matrices.
absl::string_view FamilyName(Family f);

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_OPCODE_TABLE_H_
