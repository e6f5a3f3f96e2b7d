// The operand and control rules that the DXBC encoder and decoder share, so
// that what one writes the other reads back unchanged.
#include "isa/dxbc_tokens.h"

namespace atomfuzz::isa {

uint32_t AllowedControls(const OpcodeInfo& row) {
  switch (row.suffix) {
    case Suffix::kSyncFlags: return 0xf;              // bits [14:11]
    case Suffix::kGlc: return 1u << 5;                // bit 16
    case Suffix::kGlcOpc: return 1u << 5 | 1u << 12;  // bits 16, 23
    case Suffix::kDimGlc: return 0x1f | 1u << 5;      // dim [15:11], bit 16
    case Suffix::kGlobalFlags: return 0xff;           // the flags we name
    case Suffix::kInterpolation: return 0xf;          // mode [14:11]
    case Suffix::kIndexable:
    case Suffix::kNone: break;
  }
  return 0;
}

namespace {

bool MaskIsValid(const Operand& op) {
  return op.selection == Selection::kMask && op.mask != 0 && op.mask <= 0xf;
}

bool SwizzleIsValid(const Operand& op) {
  for (uint8_t c : op.swizzle) {
    if (c > 3) return false;
  }
  return op.selection == Selection::kSwizzle ||
         op.selection == Selection::kSelect1;
}

}  // namespace

const char* OperandShapeProblem(OperandKind kind, const Operand& op) {
  if (op.file == RegFile::kImmediate) {
    return op.value_count == 1 || op.value_count == 4
               ? nullptr
               : "an immediate of 1 or 4 components";
  }
  // The printer and assembler know only the 0-component null (0x0000D000,
  // spec 4.4); a null with a mask or swizzle would not survive a round trip.
  if (op.file == RegFile::kNull) {
    return op.selection == Selection::kNone
               ? nullptr
               : "a 0-component null (0x0000D000, spec 4.4)";
  }
  if ((op.file == RegFile::kUav || op.file == RegFile::kTgsm) &&
      (op.relative || op.offset != 0)) {
    return "a u#/g# without an index expression (cs_5_0, E-44)";
  }
  switch (kind) {
    case OperandKind::kDst:
    case OperandKind::kMemDst:
      return MaskIsValid(op) ? nullptr : "a write mask (mask mode, 1-4 bits)";
    case OperandKind::kSrc:
    case OperandKind::kMemSrc:
      return SwizzleIsValid(op) ? nullptr
                                : "a swizzle or one selected component";
    case OperandKind::kInputDecl:
      return op.selection == Selection::kNone || MaskIsValid(op)
                 ? nullptr
                 : "no components or a write mask";
    case OperandKind::kInputPsDecl:
      return MaskIsValid(op) ? nullptr : "a write mask";
    default:
      return op.selection == Selection::kNone
                 ? nullptr
                 : "a 0-component operand (spec 4.7)";
  }
}

int IndexDimension(RegFile file) {
  switch (file) {
    case RegFile::kTemp:
    case RegFile::kInput:
    case RegFile::kUav:
    case RegFile::kTgsm: return 1;
    case RegFile::kIndexableTemp: return 2;
    default: return 0;
  }
}

std::optional<RegFile> RegFileFromType(uint32_t type) {
  for (RegFile f :
       {RegFile::kTemp, RegFile::kInput, RegFile::kInputCoverageMask,
        RegFile::kIndexableTemp, RegFile::kImmediate, RegFile::kNull,
        RegFile::kUav, RegFile::kTgsm, RegFile::kThreadID,
        RegFile::kThreadGroupID, RegFile::kThreadIDInGroup,
        RegFile::kThreadIDInGroupFlattened}) {
    if (static_cast<uint32_t>(f) == type) return f;
  }
  return std::nullopt;
}

Operand CanonicalOperand(const Operand& op) {
  Operand c;
  c.file = op.file;
  if (op.file == RegFile::kImmediate) {
    c.value_count = op.value_count;
    for (size_t i = 0; i < op.value_count && i < 4; ++i) {
      c.values[i] = op.values[i];
    }
    return c;
  }
  if (op.file == RegFile::kNumber) {
    c.index = op.index;
    return c;
  }
  if (HasIndex(op.file)) c.index = op.index;
  if (op.file != RegFile::kTemp) {  // x#, and u#/g# so E-44 can be named
    c.offset = op.offset;
    c.relative = op.relative;
  }
  c.selection = op.selection;
  if (op.selection == Selection::kMask) c.mask = op.mask;
  if (op.selection == Selection::kSwizzle) c.swizzle = op.swizzle;
  if (op.selection == Selection::kSelect1) c.swizzle = {op.swizzle[0], 0, 0, 0};
  return c;
}

Instruction CanonicalInstruction(const Instruction& inst) {
  Instruction c;
  c.op = inst.op;
  c.operands = inst.operands;
  c.line = inst.line;
  switch (inst.info().suffix) {
    case Suffix::kSyncFlags: c.sync_flags = inst.sync_flags; break;
    case Suffix::kGlobalFlags: c.global_flags = inst.global_flags; break;
    case Suffix::kInterpolation: c.interpolation = inst.interpolation; break;
    case Suffix::kGlcOpc: c.opc = inst.opc; [[fallthrough]];
    case Suffix::kGlc: c.glc = inst.glc; break;
    case Suffix::kDimGlc:
      c.glc = inst.glc;
      c.dim = inst.dim;
      c.types = inst.types;
      break;
    case Suffix::kIndexable:
      c.indexable = inst.indexable;
      if (c.indexable && c.indexable->dim != Dim::kStructuredBuffer) {
        c.indexable->stride = 0;
      }
      break;
    case Suffix::kNone: break;
  }
  return c;
}

}  // namespace atomfuzz::isa
