// The one IR: a cs_5_0 or ps_5_0 program as a list of declarations and
// instructions.
// The assembler and (later) the DXBC decoder produce it; the printer, encoder,
// oracle, executors and generator consume it.
#ifndef ATOMFUZZ_ISA_PROGRAM_H_
#define ATOMFUZZ_ISA_PROGRAM_H_

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/strings/string_view.h"
#include "isa/opcode_table.h"
#include "isa/operand.h"

namespace atomfuzz::isa {

// Limits that keep hostile input cheap; no real shader comes close. Every
// reader of programs (the assembler, the DXBC decoder) stops past
// kMaxInstructions; the validator refuses blocks nested deeper than
// kMaxNesting, atomfuzz's cap (fxc's shaders nest a few levels).
inline constexpr size_t kMaxInstructions = size_t{1} << 16;
inline constexpr int kMaxNesting = 64;

// Resource dimensions; values are D3D10_SB_RESOURCE_DIMENSION (spec 4.6).
enum class Dim : uint8_t {
  kUnknown = 0,
  kBuffer = 1,
  kTexture1D = 2,
  kTexture2D = 3,
  kTexture3D = 5,
  kTexture1DArray = 7,
  kTexture2DArray = 8,
  kRawBuffer = 11,
  kStructuredBuffer = 12,
};

// The shader stages atomfuzz runs (spec 1.1): the version token's program
// type is 5 for compute and 0 for pixel (spec 4.1).
enum class Stage : uint8_t { kCompute, kPixel };

// How a pixel input is interpolated: D3D10_SB_INTERPOLATION_MODE, bits
// [14:11] of dcl_input_ps_* (docs/pixel-stage.md P.2).
enum class Interpolation : uint8_t {
  kUndefined = 0,
  kConstant = 1,
  kLinear = 2,
  kLinearCentroid = 3,
  kLinearNoPerspective = 4,
  kLinearNoPerspectiveCentroid = 5,
  kLinearSample = 6,
  kLinearNoPerspectiveSample = 7,
};

// The system values a dcl_input_ps_sgv/_siv names: D3D10_SB_NAME codes,
// kept in the operand after the register (P.2).
enum class InputName : uint32_t {
  kPosition = 1,
  kPrimitiveId = 7,
  kSampleIndex = 10,
};

// Return/declared component types; values are the TPF codes (spec 4.6).
enum class ReturnType : uint8_t {
  kUnorm = 1,
  kSnorm = 2,
  kSint = 3,
  kUint = 4,
  kFloat = 5,
  kMixed = 6,
};

// Sync flags (spec 2.2), stored as bits [14:11] of the opcode token >> 11.
enum SyncFlag : uint8_t {
  kSyncThreads = 1 << 0,    // _t
  kSyncTgsm = 1 << 1,       // _g
  kSyncUavGroup = 1 << 2,   // _ugroup (fxc spells it _sat_ugroup)
  kSyncUavGlobal = 1 << 3,  // _uglobal
};

// dcl_globalFlags bits, as bits [23:11] >> 11 (TPF D3D1x_SB_GLOBAL_FLAG_*).
enum GlobalFlag : uint16_t {
  kRefactoringAllowed = 1 << 0,
  kEnableDoublePrecisionFloatOps = 1 << 1,
  kForceEarlyDepthStencil = 1 << 2,
  kEnableRawAndStructuredBuffers = 1 << 3,
  kSkipOptimization = 1 << 4,
  kEnableMinimumPrecision = 1 << 5,
  kEnable11_1DoubleExtensions = 1 << 6,
  kEnable11_1ShaderExtensions = 1 << 7,
};

// The _indexable(dim[, stride=N])(t,t,t,t) suffix fxc prints on u# loads
// (spec 3.3): the extended opcode tokens RESOURCE_DIM and RETURN_TYPE.
struct ResourceSuffix {
  Dim dim = Dim::kUnknown;
  uint32_t stride = 0;  // structured_buffer only
  std::array<ReturnType, 4> types = {ReturnType::kMixed, ReturnType::kMixed,
                                     ReturnType::kMixed, ReturnType::kMixed};
  bool operator==(const ResourceSuffix&) const = default;
};

// An instruction's operands, kept inline: nearly every instruction has at
// most four (five: bfi, *_cmp_exch), so copying a program allocates only
// for the rare longer ones, where a std::vector allocated once per
// instruction per copy.
using OperandList = absl::InlinedVector<Operand, 4>;

struct Instruction {
  Op op = Op::kRet;
  OperandList operands;
  // Opcode-specific controls (spec 4.2 bits [23:11]), by name.
  uint8_t sync_flags = 0;     // kSync
  uint16_t global_flags = 0;  // kDclGlobalFlags
  bool glc = false;           // dcl_uav_*
  bool opc = false;           // dcl_uav_structured
  Dim dim = Dim::kUnknown;    // dcl_uav_typed
  Interpolation interpolation = Interpolation::kUndefined;  // dcl_input_ps_*
  std::array<ReturnType, 4> types = {ReturnType::kUint, ReturnType::kUint,
                                     ReturnType::kUint, ReturnType::kUint};
  std::optional<ResourceSuffix> indexable;  // ld_* on u#
  // Where it came from, for diagnostics; not part of equality.
  int line = 0;

  const OpcodeInfo& info() const { return Info(op); }
  bool operator==(const Instruction& o) const {
    return op == o.op && operands == o.operands && sync_flags == o.sync_flags &&
           global_flags == o.global_flags && glc == o.glc && opc == o.opc &&
           dim == o.dim && interpolation == o.interpolation &&
           types == o.types && indexable == o.indexable;
  }
};

struct Program {
  // cs_5_0 or ps_5_0 (spec 1.1); the model is kept explicit for the encoder.
  Stage stage = Stage::kCompute;
  uint8_t major = 5;
  uint8_t minor = 0;
  std::vector<Instruction> instructions;  // declarations first, as fxc does
  bool operator==(const Program& o) const {
    return stage == o.stage && major == o.major && minor == o.minor &&
           instructions == o.instructions;
  }
  bool pixel() const { return stage == Stage::kPixel; }
};

// "cs" or "ps": the version line's prefix.
absl::string_view StagePrefix(Stage stage);

// Number of coordinates a typed UAV of this dimension takes (spec 1.2).
int TypedAddressWidth(Dim dim);

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_PROGRAM_H_
