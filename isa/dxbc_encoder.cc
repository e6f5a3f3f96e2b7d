// Instruction -> tokens (spec 4.2-4.7), driven by the opcode table row.
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "isa/dxbc_tokens.h"
#include "isa/printer.h"
#include "isa/spelling.h"

namespace atomfuzz::isa {
namespace {

absl::Status Unencodable(const Instruction& inst, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(
      "cannot encode '", PrintInstruction(inst), "' as DXBC: ", why));
}

// Bits [11:0]: component count and selection (spec 4.4).
uint32_t ComponentBits(const Operand& op) {
  if (op.file == RegFile::kImmediate) return op.value_count == 1 ? 1 : 2;
  switch (op.selection) {
    case Selection::kNone: return 0;
    case Selection::kMask: return 2 | static_cast<uint32_t>(op.mask) << 4;
    case Selection::kSwizzle: {
      uint32_t bits = 2 | 1u << 2;
      for (int i = 0; i < 4; ++i) {
        bits |= static_cast<uint32_t>(op.swizzle[static_cast<size_t>(i)])
                << (4 + 2 * i);
      }
      return bits;
    }
    case Selection::kSelect1:
      return 2 | 2u << 2 | static_cast<uint32_t>(op.swizzle[0]) << 4;
  }
  return 0;
}

// An operand token with its indices and immediate values.
void AppendRegister(const Operand& op, std::vector<uint32_t>& out) {
  const int dims = IndexDimension(op.file);
  uint32_t token = ComponentBits(op) |
                   static_cast<uint32_t>(op.file) << kOperandTypeShift |
                   static_cast<uint32_t>(dims) << kIndexDimShift;
  // x#[r1.y + 2]: the element index is an immediate plus a register.
  if (dims == 2 && op.relative) {
    token |= kRepImmediatePlusRelative << (kIndexRepShift + 3);
  }
  out.push_back(token);
  if (dims >= 1) out.push_back(op.index);
  if (dims == 2) {
    out.push_back(op.offset);
    if (op.relative) {
      // The nested operand: r#.c as a select-1 source (spec 4.4).
      out.push_back(2 | 2u << 2 |
                    static_cast<uint32_t>(op.relative->component) << 4 |
                    1u << kIndexDimShift);
      out.push_back(op.relative->temp);
    }
  }
  if (op.file == RegFile::kImmediate) {
    for (int i = 0; i < op.value_count; ++i) {
      out.push_back(op.values[static_cast<size_t>(i)]);
    }
  }
}

absl::Status AppendOperand(const Instruction& inst, int i,
                           std::vector<uint32_t>& out) {
  const OperandKind kind = inst.info().operands[static_cast<size_t>(i)].kind;
  const Operand& op = inst.operands[static_cast<size_t>(i)];
  const std::string which = absl::StrCat("operand ", i + 1, ": ");
  if (!(CanonicalOperand(op) == op)) {
    return Unencodable(inst, which +
                                 "it sets fields its register file and "
                                 "selection do not use");
  }
  if (kind == OperandKind::kInputName && InputNameSpelling(op.index).empty()) {
    return Unencodable(inst, which + "an input name atomfuzz models");
  }
  if (kind == OperandKind::kNumber || kind == OperandKind::kInputName) {
    if (op.file != RegFile::kNumber)
      return Unencodable(inst, which + "a number");
    out.push_back(op.index);
    return absl::OkStatus();
  }
  if (kind == OperandKind::kIndexableTempDecl) {
    if (op.file != RegFile::kIndexableTemp || op.relative) {
      return Unencodable(inst, which + "x#[size]");
    }
    out.push_back(op.index);  // dcl_indexableTemp: register, size (TPF)
    out.push_back(op.offset);
    return absl::OkStatus();
  }
  const OperandKindRule rule = RuleFor(kind);
  if (!rule.Accepts(op.file)) return Unencodable(inst, which + rule.what);
  if (const char* problem = OperandShapeProblem(kind, op)) {
    return Unencodable(inst, which + problem);
  }
  if (op.relative && op.relative->component > 3) {
    return Unencodable(inst, which + "a relative index component x..w");
  }
  AppendRegister(op, out);
  return absl::OkStatus();
}

bool TypeIsValid(ReturnType t) {
  return t >= ReturnType::kUnorm && t <= ReturnType::kMixed;
}

uint32_t TypeNibbles(const std::array<ReturnType, 4>& types) {
  uint32_t bits = 0;
  for (size_t i = 0; i < 4; ++i) {
    bits |= static_cast<uint32_t>(types[i]) << (4 * i);
  }
  return bits;
}

// Field ranges the controls and extended tokens can hold.
absl::Status CheckFields(const Instruction& inst) {
  const OpcodeInfo& row = inst.info();
  if (!(CanonicalInstruction(inst) == inst)) {
    return Unencodable(inst, "it sets fields its mnemonic does not use");
  }
  if (inst.sync_flags > 0xf) return Unencodable(inst, "sync flags");
  if (inst.global_flags > 0xff)
    return Unencodable(inst, "unknown global flags");
  if (row.suffix == Suffix::kInterpolation &&
      (inst.interpolation == Interpolation::kUndefined ||
       static_cast<uint32_t>(inst.interpolation) > 7)) {
    return Unencodable(inst, "an interpolation mode 1-7");
  }
  if (row.suffix == Suffix::kDimGlc) {
    if (TypedAddressWidth(inst.dim) == 0) {
      return Unencodable(inst, "a typed UAV dimension");
    }
    for (ReturnType t : inst.types) {
      if (!TypeIsValid(t)) return Unencodable(inst, "component types");
    }
  }
  if (inst.indexable) {
    const ResourceSuffix& s = *inst.indexable;
    if (s.dim == Dim::kUnknown || s.stride > 0xfff) {
      return Unencodable(inst, "a resource dimension and a stride < 4096");
    }
    for (ReturnType t : s.types) {
      if (!TypeIsValid(t)) return Unencodable(inst, "component types");
    }
  }
  if (static_cast<int>(inst.operands.size()) != row.operand_count()) {
    return Unencodable(inst, absl::StrCat(row.operand_count(), " operands"));
  }
  return absl::OkStatus();
}

}  // namespace

uint32_t EncodeControls(const Instruction& inst) {
  const OpcodeInfo& row = inst.info();
  uint32_t c = row.test_nonzero ? kTestNonzeroControl : 0;
  switch (row.suffix) {
    case Suffix::kSyncFlags: c |= inst.sync_flags; break;
    case Suffix::kGlobalFlags: c |= inst.global_flags; break;
    case Suffix::kGlcOpc: c |= inst.opc ? 1u << 12 : 0; [[fallthrough]];
    case Suffix::kGlc: c |= inst.glc ? 1u << 5 : 0; break;
    case Suffix::kDimGlc:
      c |= static_cast<uint32_t>(inst.dim) | (inst.glc ? 1u << 5 : 0);
      break;
    case Suffix::kInterpolation:
      c |= static_cast<uint32_t>(inst.interpolation);
      break;
    case Suffix::kIndexable:
    case Suffix::kNone: break;
  }
  return c & kControlsMask;
}

absl::Status EncodeInstruction(const Instruction& inst,
                               std::vector<uint32_t>& out) {
  if (absl::Status s = CheckFields(inst); !s.ok()) return s;
  const size_t start = out.size();
  const OpcodeInfo& row = inst.info();
  uint32_t token0 = row.token_opcode | EncodeControls(inst) << kControlsShift;
  out.push_back(0);  // token 0, once the length is known
  if (inst.indexable) {
    // fxc's order: RESOURCE_DIM, then RESOURCE_RETURN_TYPE (spec 3.3, 4.3).
    token0 |= kExtendedBit;
    out.push_back(kExtendedBit | kExtResourceDim |
                  static_cast<uint32_t>(inst.indexable->dim) << 6 |
                  inst.indexable->stride << 11);
    out.push_back(kExtReturnType | TypeNibbles(inst.indexable->types) << 6);
  }
  for (int i = 0; i < row.operand_count(); ++i) {
    if (absl::Status s = AppendOperand(inst, i, out); !s.ok()) {
      out.resize(start);
      return s;
    }
  }
  if (row.suffix == Suffix::kDimGlc) out.push_back(TypeNibbles(inst.types));
  const size_t length = out.size() - start;
  if (length > kMaxEncodedLength) {
    out.resize(start);
    return Unencodable(
        inst, absl::StrFormat(
                  "%d DWORDs; at most %d keep every parser in agreement (E-38)",
                  length, kMaxEncodedLength));
  }
  out[start] = token0 | static_cast<uint32_t>(length) << kLengthShift;
  return absl::OkStatus();
}

}  // namespace atomfuzz::isa
