#include "isa/opcode_table.h"

#include <algorithm>

namespace atomfuzz::isa {
namespace {

using K = OperandKind;
using R = Role;
using F = Family;

constexpr OperandSpec O(OperandKind k, Role r) { return {k, r}; }
constexpr OperandSpec D(Role r = R::kDest) { return {K::kDst, r}; }
constexpr OperandSpec S(Role r = R::kSource) { return {K::kSrc, r}; }
constexpr OperandSpec M(Role r = R::kTarget) { return {K::kMem, r}; }

constexpr uint8_t kRaw = kUavRaw | kTgsmRaw;
constexpr uint8_t kStructured = kUavStructured | kTgsmStructured;

// Row builders keep each row on one line and its shape obvious.
constexpr OpcodeInfo Alu(Op op, absl::string_view m, uint16_t tok,
                         std::array<OperandSpec, kMaxOperands> ops) {
  return {op,         m, tok,           false, F::kAlu,
          Rmw::kNone, 0, Suffix::kNone, ops,   "1.10 (integer ALU, FS 22)"};
}
using B = BlockShape;
using BK = BlockKind;
constexpr OpcodeInfo Flow(Op op, absl::string_view m, uint16_t tok, bool nz,
                          std::array<OperandSpec, kMaxOperands> ops,
                          BlockShape block = B::kNone,
                          BlockKind kind = BK::kNone) {
  return {op,  m,         tok,   nz,  F::kControl, Rmw::kNone, 0, Suffix::kNone,
          ops, "FS 22.7", block, kind};
}
constexpr OpcodeInfo Atomic(Op op, absl::string_view m, uint16_t tok, Rmw rmw) {
  const bool cmp = rmw == Rmw::kCmpExch;
  return {op,
          m,
          tok,
          false,
          F::kAtomic,
          rmw,
          kAllMemories,
          Suffix::kNone,
          cmp ? std::array<OperandSpec, kMaxOperands>{M(), S(R::kAddress),
                                                      S(R::kComparand),
                                                      S(R::kValue)}
              : std::array<OperandSpec, kMaxOperands>{M(), S(R::kAddress),
                                                      S(R::kValue)},
          "1.4, 4.7"};
}
constexpr OpcodeInfo ImmAtomic(Op op, absl::string_view m, uint16_t tok,
                               Rmw rmw) {
  const bool cmp = rmw == Rmw::kCmpExch;
  return {
      op,
      m,
      tok,
      false,
      F::kImmAtomic,
      rmw,
      kAllMemories,
      Suffix::kNone,
      cmp ? std::array<OperandSpec, kMaxOperands>{D(R::kReturn), M(),
                                                  S(R::kAddress),
                                                  S(R::kComparand),
                                                  S(R::kValue)}
          : std::array<OperandSpec, kMaxOperands>{D(R::kReturn), M(),
                                                  S(R::kAddress), S(R::kValue)},
      "1.5, 4.7"};
}

constexpr OpcodeInfo FloatAlu(Op op, absl::string_view m, uint16_t tok) {
  return {op,         m, tok,           false,      F::kAlu,
          Rmw::kNone, 0, Suffix::kNone, {D(), S()}, "P.4 (FS 22.10)"};
}
constexpr OpcodeInfo Discard(Op op, absl::string_view m, bool nz) {
  return {op,
          m,
          13,
          nz,
          F::kDiscard,
          Rmw::kNone,
          0,
          Suffix::kNone,
          {S(R::kCondition)},
          "P.3 (FS 22.5.1)"};
}
constexpr OpcodeInfo Deriv(Op op, absl::string_view m, uint16_t tok) {
  return {op,         m, tok,           false,      F::kDeriv,
          Rmw::kNone, 0, Suffix::kNone, {D(), S()}, "P.5 (FS 16.8)"};
}
constexpr OpcodeInfo PixelInput(Op op, absl::string_view m, uint16_t tok) {
  return {op,
          m,
          tok,
          false,
          F::kDecl,
          Rmw::kNone,
          0,
          Suffix::kInterpolation,
          // The name is a bare number in the declaration, as counts are.
          {O(K::kInputPsDecl, R::kDeclared), O(K::kInputName, R::kCount)},
          "P.2"};
}

constexpr OpcodeInfo kTable[] = {
    Alu(Op::kMov, "mov", 54, {D(), S()}),
    Alu(Op::kMovc, "movc", 55, {D(), S(R::kCondition), S(), S()}),
    Alu(Op::kIAdd, "iadd", 30, {D(), S(), S()}),
    Alu(Op::kINeg, "ineg", 40, {D(), S()}),
    // imul/umul write the high half to the first destination (often null).
    Alu(Op::kIMul, "imul", 38, {D(), D(R::kSecondDest), S(), S()}),
    Alu(Op::kUMul, "umul", 81, {D(), D(R::kSecondDest), S(), S()}),
    Alu(Op::kIMad, "imad", 35, {D(), S(), S(), S()}),
    Alu(Op::kUMad, "umad", 82, {D(), S(), S(), S()}),
    Alu(Op::kIShl, "ishl", 41, {D(), S(), S()}),
    Alu(Op::kIShr, "ishr", 42, {D(), S(), S()}),
    Alu(Op::kUShr, "ushr", 85, {D(), S(), S()}),
    Alu(Op::kAnd, "and", 1, {D(), S(), S()}),
    Alu(Op::kOr, "or", 60, {D(), S(), S()}),
    Alu(Op::kXor, "xor", 87, {D(), S(), S()}),
    Alu(Op::kNot, "not", 59, {D(), S()}),
    Alu(Op::kIEq, "ieq", 32, {D(), S(), S()}),
    Alu(Op::kINe, "ine", 39, {D(), S(), S()}),
    Alu(Op::kILt, "ilt", 34, {D(), S(), S()}),
    Alu(Op::kIGe, "ige", 33, {D(), S(), S()}),
    Alu(Op::kULt, "ult", 79, {D(), S(), S()}),
    Alu(Op::kUGe, "uge", 80, {D(), S(), S()}),
    Alu(Op::kIMax, "imax", 36, {D(), S(), S()}),
    Alu(Op::kIMin, "imin", 37, {D(), S(), S()}),
    Alu(Op::kUMax, "umax", 83, {D(), S(), S()}),
    Alu(Op::kUMin, "umin", 84, {D(), S(), S()}),
    Alu(Op::kBfi, "bfi", 140, {D(), S(), S(), S(), S()}),
    Alu(Op::kUbfe, "ubfe", 138, {D(), S(), S(), S()}),
    Alu(Op::kCountBits, "countbits", 134, {D(), S()}),

    Flow(Op::kIfZ, "if_z", 31, false, {S(R::kCondition)}, B::kOpen, BK::kIf),
    Flow(Op::kIfNz, "if_nz", 31, true, {S(R::kCondition)}, B::kOpen, BK::kIf),
    Flow(Op::kElse, "else", 18, false, {}, B::kMiddle, BK::kIf),
    Flow(Op::kEndIf, "endif", 21, false, {}, B::kClose, BK::kIf),
    Flow(Op::kLoop, "loop", 48, false, {}, B::kOpen, BK::kLoop),
    Flow(Op::kEndLoop, "endloop", 22, false, {}, B::kClose, BK::kLoop),
    Flow(Op::kBreak, "break", 2, false, {}, B::kBreak),
    Flow(Op::kBreakcZ, "breakc_z", 3, false, {S(R::kCondition)}, B::kBreak),
    Flow(Op::kBreakcNz, "breakc_nz", 3, true, {S(R::kCondition)}, B::kBreak),
    Flow(Op::kContinue, "continue", 7, false, {}, B::kContinue, BK::kLoop),
    Flow(Op::kContinuecZ, "continuec_z", 8, false, {S(R::kCondition)},
         B::kContinue, BK::kLoop),
    Flow(Op::kContinuecNz, "continuec_nz", 8, true, {S(R::kCondition)},
         B::kContinue, BK::kLoop),
    Flow(Op::kSwitch, "switch", 76, false, {S(R::kCondition)}, B::kOpen,
         BK::kSwitch),
    Flow(Op::kCase, "case", 6, false, {S(R::kCaseValue)}, B::kLabel,
         BK::kSwitch),
    Flow(Op::kDefault, "default", 10, false, {}, B::kLabel, BK::kSwitch),
    Flow(Op::kEndSwitch, "endswitch", 23, false, {}, B::kClose, BK::kSwitch),
    Flow(Op::kRet, "ret", 62, false, {}),
    Flow(Op::kRetcZ, "retc_z", 63, false, {S(R::kCondition)}),
    Flow(Op::kRetcNz, "retc_nz", 63, true, {S(R::kCondition)}),

    {Op::kSync,
     "sync",
     190,
     false,
     F::kSync,
     Rmw::kNone,
     0,
     Suffix::kSyncFlags,
     {},
     "2.2"},

    {Op::kLdRaw,
     "ld_raw",
     165,
     false,
     F::kLoad,
     Rmw::kNone,
     kRaw,
     Suffix::kIndexable,
     {D(), S(R::kByteOffset), O(K::kMemSrc, R::kTarget)},
     "1.7"},
    {Op::kStoreRaw,
     "store_raw",
     166,
     false,
     F::kStore,
     Rmw::kNone,
     kRaw,
     Suffix::kNone,
     {O(K::kMemDst, R::kTarget), S(R::kByteOffset), S(R::kValue)},
     "1.7"},
    {Op::kLdStructured,
     "ld_structured",
     167,
     false,
     F::kLoad,
     Rmw::kNone,
     kStructured,
     Suffix::kIndexable,
     {D(), S(R::kStructIndex), S(R::kByteOffset), O(K::kMemSrc, R::kTarget)},
     "1.7"},
    {Op::kStoreStructured,
     "store_structured",
     168,
     false,
     F::kStore,
     Rmw::kNone,
     kStructured,
     Suffix::kNone,
     {O(K::kMemDst, R::kTarget), S(R::kStructIndex), S(R::kByteOffset),
      S(R::kValue)},
     "1.7"},
    {Op::kLdUavTyped,
     "ld_uav_typed",
     163,
     false,
     F::kLoad,
     Rmw::kNone,
     kUavTyped,
     Suffix::kIndexable,
     {D(), S(R::kAddress), O(K::kMemSrc, R::kTarget)},
     "1.7"},
    {Op::kStoreUavTyped,
     "store_uav_typed",
     164,
     false,
     F::kStore,
     Rmw::kNone,
     kUavTyped,
     Suffix::kNone,
     {O(K::kMemDst, R::kTarget), S(R::kAddress), S(R::kValue)},
     "1.7"},

    // Spec 1.5: the two groups are not in parallel order (E-39).
    Atomic(Op::kAtomicAnd, "atomic_and", 169, Rmw::kAnd),
    Atomic(Op::kAtomicOr, "atomic_or", 170, Rmw::kOr),
    Atomic(Op::kAtomicXor, "atomic_xor", 171, Rmw::kXor),
    Atomic(Op::kAtomicCmpStore, "atomic_cmp_store", 172, Rmw::kCmpExch),
    Atomic(Op::kAtomicIAdd, "atomic_iadd", 173, Rmw::kIAdd),
    Atomic(Op::kAtomicIMax, "atomic_imax", 174, Rmw::kIMax),
    Atomic(Op::kAtomicIMin, "atomic_imin", 175, Rmw::kIMin),
    Atomic(Op::kAtomicUMax, "atomic_umax", 176, Rmw::kUMax),
    Atomic(Op::kAtomicUMin, "atomic_umin", 177, Rmw::kUMin),

    {Op::kImmAtomicAlloc,
     "imm_atomic_alloc",
     178,
     false,
     F::kCounter,
     Rmw::kAlloc,
     kUavStructured,
     Suffix::kNone,
     {D(R::kReturn), O(K::kUav, R::kTarget)},
     "1.6"},
    {Op::kImmAtomicConsume,
     "imm_atomic_consume",
     179,
     false,
     F::kCounter,
     Rmw::kConsume,
     kUavStructured,
     Suffix::kNone,
     {D(R::kReturn), O(K::kUav, R::kTarget)},
     "1.6"},

    ImmAtomic(Op::kImmAtomicIAdd, "imm_atomic_iadd", 180, Rmw::kIAdd),
    ImmAtomic(Op::kImmAtomicAnd, "imm_atomic_and", 181, Rmw::kAnd),
    ImmAtomic(Op::kImmAtomicOr, "imm_atomic_or", 182, Rmw::kOr),
    ImmAtomic(Op::kImmAtomicXor, "imm_atomic_xor", 183, Rmw::kXor),
    ImmAtomic(Op::kImmAtomicExch, "imm_atomic_exch", 184, Rmw::kExch),
    ImmAtomic(Op::kImmAtomicCmpExch, "imm_atomic_cmp_exch", 185, Rmw::kCmpExch),
    ImmAtomic(Op::kImmAtomicIMax, "imm_atomic_imax", 186, Rmw::kIMax),
    ImmAtomic(Op::kImmAtomicIMin, "imm_atomic_imin", 187, Rmw::kIMin),
    ImmAtomic(Op::kImmAtomicUMax, "imm_atomic_umax", 188, Rmw::kUMax),
    ImmAtomic(Op::kImmAtomicUMin, "imm_atomic_umin", 189, Rmw::kUMin),

    {Op::kDclGlobalFlags,
     "dcl_globalFlags",
     106,
     false,
     F::kDecl,
     Rmw::kNone,
     0,
     Suffix::kGlobalFlags,
     {},
     "3.2, 4.6"},
    {Op::kDclUavRaw,
     "dcl_uav_raw",
     157,
     false,
     F::kDecl,
     Rmw::kNone,
     kUavRaw,
     Suffix::kGlc,
     {O(K::kUav, R::kDeclared)},
     "1.8, 3.2"},
    {Op::kDclUavStructured,
     "dcl_uav_structured",
     158,
     false,
     F::kDecl,
     Rmw::kNone,
     kUavStructured,
     Suffix::kGlcOpc,
     {O(K::kUav, R::kDeclared), O(K::kNumber, R::kCount)},
     "1.8, 3.2"},
    {Op::kDclUavTyped,
     "dcl_uav_typed",
     156,
     false,
     F::kDecl,
     Rmw::kNone,
     kUavTyped,
     Suffix::kDimGlc,
     {O(K::kUav, R::kDeclared)},
     "1.8, 3.2"},
    {Op::kDclTgsmRaw,
     "dcl_tgsm_raw",
     159,
     false,
     F::kDecl,
     Rmw::kNone,
     kTgsmRaw,
     Suffix::kNone,
     {O(K::kTgsm, R::kDeclared), O(K::kNumber, R::kCount)},
     "1.8"},
    {Op::kDclTgsmStructured,
     "dcl_tgsm_structured",
     160,
     false,
     F::kDecl,
     Rmw::kNone,
     kTgsmStructured,
     Suffix::kNone,
     {O(K::kTgsm, R::kDeclared), O(K::kNumber, R::kCount),
      O(K::kNumber, R::kCount)},
     "1.8"},
    {Op::kDclInput,
     "dcl_input",
     95,
     false,
     F::kDecl,
     Rmw::kNone,
     0,
     Suffix::kNone,
     {O(K::kInputDecl, R::kDeclared)},
     "1.9"},
    {Op::kDclTemps,
     "dcl_temps",
     104,
     false,
     F::kDecl,
     Rmw::kNone,
     0,
     Suffix::kNone,
     {O(K::kNumber, R::kCount)},
     "1.8"},
    {Op::kDclIndexableTemp,
     "dcl_indexableTemp",
     105,
     false,
     F::kDecl,
     Rmw::kNone,
     0,
     Suffix::kNone,
     {O(K::kIndexableTempDecl, R::kDeclared), O(K::kNumber, R::kCount)},
     "1.8"},
    {Op::kDclThreadGroup,
     "dcl_thread_group",
     155,
     false,
     F::kDecl,
     Rmw::kNone,
     0,
     Suffix::kNone,
     {O(K::kNumber, R::kCount), O(K::kNumber, R::kCount),
      O(K::kNumber, R::kCount)},
     "1.8"},

    // The pixel stage (docs/pixel-stage.md).
    FloatAlu(Op::kFtoI, "ftoi", 27),
    FloatAlu(Op::kFtoU, "ftou", 28),
    Discard(Op::kDiscardZ, "discard_z", false),
    Discard(Op::kDiscardNz, "discard_nz", true),
    Deriv(Op::kDerivRtx, "deriv_rtx", 11),
    Deriv(Op::kDerivRty, "deriv_rty", 12),
    Deriv(Op::kDerivRtxCoarse, "deriv_rtx_coarse", 122),
    Deriv(Op::kDerivRtxFine, "deriv_rtx_fine", 123),
    Deriv(Op::kDerivRtyCoarse, "deriv_rty_coarse", 124),
    Deriv(Op::kDerivRtyFine, "deriv_rty_fine", 125),
    PixelInput(Op::kDclInputPsSgv, "dcl_input_ps_sgv", 99),
    PixelInput(Op::kDclInputPsSiv, "dcl_input_ps_siv", 100),
};

constexpr bool RowsAreInOpOrder() {
  for (int i = 0; i < static_cast<int>(std::size(kTable)); ++i) {
    if (static_cast<int>(kTable[i].op) != i) return false;
  }
  return static_cast<int>(std::size(kTable)) == kOpCount;
}
static_assert(RowsAreInOpOrder(), "kTable must have one row per Op, in order");

constexpr bool MnemonicsAreUnique() {
  for (const auto& a : kTable) {
    for (const auto& b : kTable) {
      if (&a != &b && a.mnemonic == b.mnemonic) return false;
    }
  }
  return true;
}
static_assert(MnemonicsAreUnique(), "two rows share a mnemonic");

constexpr bool TokenOpcodesAreUniquePerTest() {
  for (const auto& a : kTable) {
    for (const auto& b : kTable) {
      if (&a != &b && a.token_opcode == b.token_opcode &&
          a.test_nonzero == b.test_nonzero)
        return false;
    }
  }
  return true;
}
static_assert(TokenOpcodesAreUniquePerTest(),
              "two rows share a token opcode and test form");

constexpr bool AtomicsHaveTheirRmw() {
  for (const auto& row : kTable) {
    if (row.is_atomic() != (row.rmw != Rmw::kNone)) return false;
  }
  return true;
}
static_assert(AtomicsHaveTheirRmw());

constexpr OperandLayout LayoutOf(const OpcodeInfo& row) {
  OperandLayout l;
  l.count = static_cast<uint8_t>(row.operand_count());
  for (int r = 0; r < kRoleCount; ++r) {
    l.role_index[static_cast<size_t>(r)] =
        static_cast<int8_t>(row.operand_with_role(static_cast<Role>(r)));
  }
  for (int k = 0; k < l.count; ++k) {
    const OperandKind kind = row.operands[static_cast<size_t>(k)].kind;
    if (kind == K::kSrc) l.src_mask |= static_cast<uint8_t>(1u << k);
    if (kind == K::kDst) l.dst_mask |= static_cast<uint8_t>(1u << k);
  }
  return l;
}

constexpr std::array<OperandLayout, kOpCount> MakeLayouts() {
  std::array<OperandLayout, kOpCount> out{};
  for (const OpcodeInfo& row : kTable) {
    out[static_cast<size_t>(row.op)] = LayoutOf(row);
  }
  return out;
}
constexpr std::array<OperandLayout, kOpCount> kLayouts = MakeLayouts();

}  // namespace

const OpcodeInfo* const internal::kOpcodeRows = kTable;
const OperandLayout* const internal::kOperandLayouts = kLayouts.data();

std::span<const OpcodeInfo> AllOpcodes() { return kTable; }

const OpcodeInfo* FindMnemonic(absl::string_view mnemonic) {
  auto it =
      std::find_if(std::begin(kTable), std::end(kTable),
                   [&](const OpcodeInfo& r) { return r.mnemonic == mnemonic; });
  return it == std::end(kTable) ? nullptr : &*it;
}

const OpcodeInfo* FindTokenOpcode(uint16_t token_opcode, bool test_nonzero) {
  const OpcodeInfo* any = nullptr;
  for (const OpcodeInfo& row : kTable) {
    if (row.token_opcode != token_opcode) continue;
    if (row.test_nonzero == test_nonzero) return &row;
    any = &row;
  }
  return any;
}

OperandKindRule RuleFor(OperandKind kind) {
  switch (kind) {
    case K::kDst:
      return {true,
              true,
              false,
              false,
              false,
              false,
              "a destination register (r#, x#[], null)"};
    case K::kSrc:
      return {true,
              false,
              true,
              true,
              false,
              false,
              "a source operand (r#, x#[], l(...), vThreadID..., v#)"};
    case K::kMem:
    case K::kMemDst:
    case K::kMemSrc:
      return {false, false, false, false, true, true, "a u# or g# register"};
    case K::kUav:
      return {false, false, false, false, true, false, "a u# register"};
    case K::kTgsm:
      return {false, false, false, false, false, true, "a g# register"};
    case K::kInputDecl:
      return {false,
              false,
              false,
              true,
              false,
              false,
              "a system value (vThreadID, vThreadGroupID, "
              "vThreadIDInGroup, vThreadIDInGroupFlattened, vCoverage)"};
    case K::kInputPsDecl:
      return {
          false, false, false, true, false, false, "an input v# and a mask"};
    case K::kInputName:
      return {false,
              false,
              false,
              false,
              false,
              false,
              "an input name (position, sampleIndex, primitive_id)"};
    case K::kIndexableTempDecl:
      return {true, false, false, false, false, false, "x#[size]"};
    case K::kNumber:
    case K::kEnd: break;
  }
  return {false, false, false, false, false, false, "a number"};
}

absl::string_view FamilyName(Family f) {
  switch (f) {
    case F::kAlu: return "alu";
    case F::kControl: return "control";
    case F::kSync: return "sync";
    case F::kLoad: return "load";
    case F::kStore: return "store";
    case F::kAtomic: return "atomic";
    case F::kImmAtomic: return "imm_atomic";
    case F::kCounter: return "counter";
    case F::kDecl: return "decl";
    case F::kDiscard: return "discard";
    case F::kDeriv: return "deriv";
  }
  return "?";
}

}  // namespace atomfuzz::isa
