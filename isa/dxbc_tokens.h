// One instruction of the SM4/SM5 token stream, both directions (spec 4.2-4.7).
// Both directions read the instruction's operands as its opcode table row
// lists them, so the codec has no per-opcode knowledge of its own.
#ifndef ATOMFUZZ_ISA_DXBC_TOKENS_H_
#define ATOMFUZZ_ISA_DXBC_TOKENS_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "isa/program.h"

namespace atomfuzz::isa {

// Opcode token fields (spec 4.2).
inline constexpr uint32_t kOpcodeMask = 0x7ff;
inline constexpr int kControlsShift = 11;
inline constexpr uint32_t kControlsMask = 0x1fff;         // bits [23:11]
inline constexpr uint32_t kTestNonzeroControl = 1u << 7;  // bit 18
inline constexpr int kLengthShift = 24;
inline constexpr uint32_t kLengthMask = 0x7f;  // bits [30:24] (TPF, DXVK)
inline constexpr uint32_t kExtendedBit = 1u << 31;
// vkd3d reads 5 length bits (E-38); no instruction we emit is longer.
inline constexpr uint32_t kMaxEncodedLength = 31;

// Extended opcode token types (spec 4.3).
inline constexpr uint32_t kExtResourceDim = 2;
inline constexpr uint32_t kExtReturnType = 3;

// Operand token fields (spec 4.4).
inline constexpr uint32_t kOperandTypeShift = 12;
inline constexpr uint32_t kIndexDimShift = 20;
inline constexpr uint32_t kIndexRepShift = 22;  // then 25, 28
inline constexpr uint32_t kRepImmediate32 = 0;
inline constexpr uint32_t kRepRelative = 2;
inline constexpr uint32_t kRepImmediatePlusRelative = 3;

// The controls an instruction sets in bits [23:11] of its opcode token.
uint32_t EncodeControls(const Instruction& inst);

// Appends the tokens of `inst` to `out`. InvalidArgument when the model holds
// something the token stream cannot say (a dynamic u# index, E-44; unused
// fields that are not at their defaults, which decoding would lose).
absl::Status EncodeInstruction(const Instruction& inst,
                               std::vector<uint32_t>& out);

// Where a decoded instruction lies, for errors: the byte offset of tokens[0]
// in the container and the instruction's number (from 1).
struct TokenPosition {
  size_t byte_offset = 0;
  int instr = 0;
};

struct DecodedInstruction {
  Instruction inst;
  size_t length = 0;  // DWORDs used, extended tokens included
};

// The instruction that starts at tokens[0]; `tokens` runs to the end of the
// program. Strict: an unknown opcode, controls the row does not use, a bad
// component mode, an extended operand token, a length past the end or one the
// operands do not fill exactly is InvalidArgument naming the DWORD.
absl::StatusOr<DecodedInstruction> DecodeInstruction(
    absl::Span<const uint32_t> tokens, TokenPosition where);

// Rules both directions share (dxbc_rules.cc).

// Bits of the controls field (bits [23:11] >> 11) that `row` may set besides
// its _nz test bit: chosen by the row's suffix grammar (spec 4.2, 4.6).
uint32_t AllowedControls(const OpcodeInfo& row);

// What is wrong with the component selection of `op` as an operand of `kind`
// (a mask for destinations, a swizzle or one component for sources, none for
// u#/g# targets, spec 4.4, 4.7), or nullptr when it is fine.
const char* OperandShapeProblem(OperandKind kind, const Operand& op);

// The index dimension operands of this file have in cs_5_0: 0 (l, null,
// vThread*), 1 (r#, u#, g#) or 2 (x#: register, then element).
int IndexDimension(RegFile file);

// The register file of a TPF operand type, if the model has it.
std::optional<RegFile> RegFileFromType(uint32_t type);

// `op` with every field its register file and selection do not use at its
// default: what decoding gives back.
Operand CanonicalOperand(const Operand& op);
// `inst` with the fields its row's suffix does not use at their defaults.
Instruction CanonicalInstruction(const Instruction& inst);

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_DXBC_TOKENS_H_
