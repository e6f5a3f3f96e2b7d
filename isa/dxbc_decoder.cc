// Tokens -> Instruction (spec 4.2-4.7), driven by the opcode table row.
// Strict, like vkd3d's TPF reader but stopping at the first problem: every
// error names the DWORD (as a byte offset) and the instruction.
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "isa/dxbc_bytes.h"
#include "isa/dxbc_tokens.h"
#include "isa/spelling.h"

namespace atomfuzz::isa {
namespace {

std::string Hex(uint32_t v) { return absl::StrFormat("0x%08x", v); }

class InstructionReader {
 public:
  InstructionReader(absl::Span<const uint32_t> tokens, TokenPosition where)
      : tokens_(tokens), where_(where) {}

  absl::StatusOr<DecodedInstruction> Read();

 private:
  absl::Status Fail(size_t dword, absl::string_view expected,
                    absl::string_view found) const {
    return DxbcError(where_.byte_offset + 4 * dword, where_.instr, expected,
                     found);
  }
  // The next DWORD of this instruction, or an error naming `what`.
  absl::StatusOr<uint32_t> Next(absl::string_view what) {
    if (pos_ >= length_) {
      return Fail(
          pos_, what,
          absl::StrFormat("the end of the instruction (length %d)", length_));
    }
    return tokens_[pos_++];
  }
  absl::Status ReadControls(uint32_t controls);
  absl::Status ReadExtendedOpcodes();
  absl::StatusOr<std::array<ReturnType, 4>> ReadTypes(uint32_t nibbles,
                                                      size_t at);
  absl::StatusOr<Operand> ReadOperand(OperandKind kind);
  absl::Status ReadComponents(uint32_t token, Operand& op);
  absl::Status ReadIndices(uint32_t token, Operand& op);

  absl::Span<const uint32_t> tokens_;
  TokenPosition where_;
  size_t pos_ = 0;
  size_t length_ = 0;
  const OpcodeInfo* row_ = nullptr;
  Instruction inst_;
};

absl::StatusOr<DecodedInstruction> InstructionReader::Read() {
  const uint32_t token0 = tokens_[0];
  length_ = (token0 >> kLengthShift) & kLengthMask;
  if (length_ == 0 || length_ > tokens_.size()) {
    return Fail(0,
                absl::StrFormat("an instruction length of 1 to %d DWORDs "
                                "(the rest of the program)",
                                tokens_.size()),
                absl::StrFormat("%d in %s", length_, Hex(token0)));
  }
  pos_ = 1;
  const uint32_t controls = (token0 >> kControlsShift) & kControlsMask;
  row_ = FindTokenOpcode(static_cast<uint16_t>(token0 & kOpcodeMask),
                         (controls & kTestNonzeroControl) != 0);
  if (row_ == nullptr) {
    return Fail(
        0, "a known opcode (spec 4.5)",
        absl::StrFormat("opcode %d in %s", token0 & kOpcodeMask, Hex(token0)));
  }
  inst_.op = row_->op;
  inst_.line = where_.instr;
  if (absl::Status s = ReadControls(controls); !s.ok()) return s;
  if (token0 & kExtendedBit) {
    if (row_->suffix != Suffix::kIndexable) {
      return Fail(0,
                  absl::StrCat("no extended opcode token on ", row_->mnemonic),
                  "the extended bit 31 set");
    }
    if (absl::Status s = ReadExtendedOpcodes(); !s.ok()) return s;
  }
  for (int i = 0; i < row_->operand_count(); ++i) {
    absl::StatusOr<Operand> op =
        ReadOperand(row_->operands[static_cast<size_t>(i)].kind);
    if (!op.ok()) return op.status();
    inst_.operands.push_back(*op);
  }
  if (row_->suffix == Suffix::kDimGlc) {
    const size_t at = pos_;
    absl::StatusOr<uint32_t> t = Next("a return-type token");
    if (!t.ok()) return t.status();
    if (*t > 0xffff)
      return Fail(at, "a return-type token below 0x10000", Hex(*t));
    absl::StatusOr<std::array<ReturnType, 4>> types = ReadTypes(*t, at);
    if (!types.ok()) return types.status();
    inst_.types = *types;
  }
  if (pos_ != length_) {
    return Fail(
        pos_,
        absl::StrFormat("the end of %s after %d DWORDs", row_->mnemonic, pos_),
        absl::StrFormat("a length field of %d", length_));
  }
  return DecodedInstruction{std::move(inst_), length_};
}

absl::Status InstructionReader::ReadControls(uint32_t controls) {
  const uint32_t rest =
      controls & ~(row_->test_nonzero ? kTestNonzeroControl : 0u);
  const uint32_t allowed = AllowedControls(*row_);
  if (rest & ~allowed) {
    return Fail(0,
                absl::StrFormat("controls (bits [23:11]) within 0x%x for %s",
                                allowed, row_->mnemonic),
                absl::StrFormat("0x%x", rest));
  }
  switch (row_->suffix) {
    case Suffix::kSyncFlags:
      inst_.sync_flags = static_cast<uint8_t>(rest);
      break;
    case Suffix::kGlobalFlags:
      inst_.global_flags = static_cast<uint16_t>(rest);
      break;
    case Suffix::kGlcOpc: inst_.opc = (rest >> 12) & 1; [[fallthrough]];
    case Suffix::kGlc: inst_.glc = (rest >> 5) & 1; break;
    case Suffix::kDimGlc:
      inst_.glc = (rest >> 5) & 1;
      inst_.dim = static_cast<Dim>(rest & 0x1f);
      if (TypedAddressWidth(inst_.dim) == 0) {
        return Fail(0, "a typed UAV dimension (1-3, 5, 7, 8; spec 4.6)",
                    absl::StrCat(rest & 0x1f));
      }
      break;
    case Suffix::kInterpolation:
      // Only the modes the assembly has words for (a round trip holds).
      if (rest < 1 || rest > 7) {
        return Fail(0, "an interpolation mode 1-7 (bits [14:11], P.2)",
                    absl::StrCat(rest));
      }
      inst_.interpolation = static_cast<Interpolation>(rest);
      break;
    case Suffix::kIndexable:
    case Suffix::kNone: break;
  }
  return absl::OkStatus();
}

absl::StatusOr<std::array<ReturnType, 4>> InstructionReader::ReadTypes(
    uint32_t nibbles, size_t at) {
  std::array<ReturnType, 4> types;
  for (size_t i = 0; i < 4; ++i) {
    const uint32_t t = (nibbles >> (4 * i)) & 0xf;
    if (t < static_cast<uint32_t>(ReturnType::kUnorm) ||
        t > static_cast<uint32_t>(ReturnType::kMixed)) {
      return Fail(at, "component types 1-6 (unorm .. mixed, spec 4.6)",
                  absl::StrFormat("%d for component %d", t, i));
    }
    types[i] = static_cast<ReturnType>(t);
  }
  return types;
}

// RESOURCE_DIM and RESOURCE_RETURN_TYPE, once each, both (spec 3.3, 4.3).
absl::Status InstructionReader::ReadExtendedOpcodes() {
  ResourceSuffix suffix;
  bool dim = false, types = false, more = true;
  while (more) {
    const size_t at = pos_;
    absl::StatusOr<uint32_t> t = Next("an extended opcode token");
    if (!t.ok()) return t.status();
    more = (*t & kExtendedBit) != 0;
    const uint32_t type = *t & 0x3f;
    if (type == kExtResourceDim && !dim && (*t & 0x7f800000) == 0) {
      dim = true;
      suffix.dim = static_cast<Dim>((*t >> 6) & 0x1f);
      suffix.stride = (*t >> 11) & 0xfff;
      const bool known = suffix.dim == Dim::kRawBuffer ||
                         suffix.dim == Dim::kStructuredBuffer ||
                         TypedAddressWidth(suffix.dim) != 0;
      if (!known || (suffix.stride && suffix.dim != Dim::kStructuredBuffer)) {
        return Fail(at,
                    "a resource dimension of the model (stride only on "
                    "structured_buffer)",
                    Hex(*t));
      }
    } else if (type == kExtReturnType && !types && (*t & 0x7fc00000) == 0) {
      types = true;
      absl::StatusOr<std::array<ReturnType, 4>> ts = ReadTypes(*t >> 6, at);
      if (!ts.ok()) return ts.status();
      suffix.types = *ts;
    } else {
      return Fail(at,
                  "one RESOURCE_DIM (type 2) and one RESOURCE_RETURN_TYPE "
                  "(type 3) extended token",
                  Hex(*t));
    }
  }
  if (!dim || !types) {
    return Fail(pos_ - 1, "both RESOURCE_DIM and RESOURCE_RETURN_TYPE",
                dim ? "no return type" : "no dimension");
  }
  inst_.indexable = suffix;
  return absl::OkStatus();
}

absl::StatusOr<Operand> InstructionReader::ReadOperand(OperandKind kind) {
  const size_t at = pos_;
  if (kind == OperandKind::kNumber) {
    absl::StatusOr<uint32_t> v = Next("a number");
    if (!v.ok()) return v.status();
    return Number(*v);
  }
  if (kind == OperandKind::kInputName) {
    absl::StatusOr<uint32_t> v = Next("an input name");
    if (!v.ok()) return v.status();
    if (InputNameSpelling(*v).empty()) {
      return Fail(at,
                  "an input name atomfuzz models (1 position, 7 primitive_id, "
                  "10 sampleIndex; P.2)",
                  absl::StrCat(*v));
    }
    return Number(*v);
  }
  Operand op;
  if (kind == OperandKind::kIndexableTempDecl) {  // register, size (TPF)
    absl::StatusOr<uint32_t> reg = Next("an x# register number");
    if (!reg.ok()) return reg.status();
    absl::StatusOr<uint32_t> size = Next("an x# size");
    if (!size.ok()) return size.status();
    op.file = RegFile::kIndexableTemp;
    op.index = *reg;
    op.offset = *size;
    return op;
  }
  const OperandKindRule rule = RuleFor(kind);
  absl::StatusOr<uint32_t> token = Next(rule.what);
  if (!token.ok()) return token.status();
  if (*token & kExtendedBit) {
    return Fail(at,
                row_->is_atomic()
                    ? "no extended operand token (no source modifiers on "
                      "atomics, FS 22.18, E-40)"
                    : "no extended operand token (modifiers are not in the "
                      "model)",
                Hex(*token));
  }
  const uint32_t type = (*token >> kOperandTypeShift) & 0xff;
  std::optional<RegFile> file = RegFileFromType(type);
  if (!file || !rule.Accepts(*file)) {
    return Fail(
        at, rule.what,
        file ? absl::StrFormat("'%s' (type %d)", RegFileName(*file), type)
             : absl::StrFormat("operand type %d in %s", type, Hex(*token)));
  }
  op.file = *file;
  if (absl::Status s = ReadComponents(*token, op); !s.ok()) return s;
  if (const char* problem = OperandShapeProblem(kind, op)) {
    return Fail(at, problem,
                absl::StrFormat("%s in %s", RegFileName(op.file), Hex(*token)));
  }
  if (absl::Status s = ReadIndices(*token, op); !s.ok()) return s;
  if (op.file == RegFile::kImmediate) {
    for (size_t i = 0; i < op.value_count; ++i) {
      absl::StatusOr<uint32_t> v = Next("an immediate value");
      if (!v.ok()) return v.status();
      op.values[i] = *v;
    }
  }
  return op;
}

// Bits [11:0] (spec 4.4): component count, then mask, swizzle or select-1.
absl::Status InstructionReader::ReadComponents(uint32_t token, Operand& op) {
  const size_t at = pos_ - 1;
  const uint32_t count = token & 3, mode = (token >> 2) & 3;
  const uint32_t bits = (token >> 4) & 0xff;
  if (op.file == RegFile::kImmediate) {
    if ((count == 1 || count == 2) && (token & 0xffc) == 0) {
      op.value_count = count == 1 ? 1 : 4;
      return absl::OkStatus();
    }
    return Fail(at,
                "an immediate of 1 or 4 components (0x1 or 0x2 in bits "
                "[11:0])",
                Hex(token));
  }
  if (count == 0 && (token & 0xffc) == 0) return absl::OkStatus();
  if (count == 2 && mode == 0 && bits <= 0xf && bits != 0) {
    op.selection = Selection::kMask;
    op.mask = static_cast<uint8_t>(bits);
    return absl::OkStatus();
  }
  if (count == 2 && mode == 1) {
    op.selection = Selection::kSwizzle;
    for (size_t i = 0; i < 4; ++i) {
      op.swizzle[i] = static_cast<uint8_t>((bits >> (2 * i)) & 3);
    }
    return absl::OkStatus();
  }
  if (count == 2 && mode == 2 && bits <= 3) {
    op.selection = Selection::kSelect1;
    op.swizzle = {static_cast<uint8_t>(bits), 0, 0, 0};
    return absl::OkStatus();
  }
  return Fail(at,
              "0 components, or 4 with a non-empty mask, a swizzle or "
              "one selected component (spec 4.4)",
              Hex(token));
}

// Bits [31:20]: the index dimension the file has in cs_5_0, immediate
// indices, and x#'s element index as N or r#.c + N.
absl::Status InstructionReader::ReadIndices(uint32_t token, Operand& op) {
  const size_t at = pos_ - 1;
  const int dims = IndexDimension(op.file);
  const uint32_t found_dims = (token >> kIndexDimShift) & 3;
  const uint32_t rep0 = (token >> kIndexRepShift) & 7;
  const uint32_t rep1 = (token >> (kIndexRepShift + 3)) & 7;
  const uint32_t used = dims == 2 ? 0x3f : dims == 1 ? 0x7 : 0;
  const bool element_ok = rep1 == kRepImmediate32 || rep1 == kRepRelative ||
                          rep1 == kRepImmediatePlusRelative;
  if (found_dims != static_cast<uint32_t>(dims) ||
      ((token >> kIndexRepShift) & 0x1ff & ~used) != 0 || rep0 != 0 ||
      (dims == 2 && !element_ok)) {
    return Fail(
        at,
        absl::StrFormat("a %d-D immediate index on %s%s", dims,
                        RegFileName(op.file),
                        dims == 2 ? " (the element may be relative)" : ""),
        Hex(token));
  }
  if (dims >= 1) {
    absl::StatusOr<uint32_t> index = Next("a register index");
    if (!index.ok()) return index.status();
    op.index = *index;
  }
  if (dims < 2) return absl::OkStatus();
  if (rep1 != kRepRelative) {
    absl::StatusOr<uint32_t> offset = Next("an element index");
    if (!offset.ok()) return offset.status();
    op.offset = *offset;
  }
  if (rep1 == kRepImmediate32) return absl::OkStatus();
  const size_t rel_at = pos_;
  absl::StatusOr<uint32_t> rel = Next("a relative index r#.c");
  if (!rel.ok()) return rel.status();
  // Only r#.c (a select-1 temp, 1-D immediate index) is in the model.
  if ((*rel & ~0x30u) != (2 | 2u << 2 | 1u << kIndexDimShift)) {
    return Fail(rel_at, "a relative index r#.c (0x0010000a | c << 4)",
                Hex(*rel));
  }
  absl::StatusOr<uint32_t> temp = Next("the relative index's register");
  if (!temp.ok()) return temp.status();
  op.relative = RelativeIndex{*temp, static_cast<uint8_t>((*rel >> 4) & 3)};
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<DecodedInstruction> DecodeInstruction(
    absl::Span<const uint32_t> tokens, TokenPosition where) {
  if (tokens.empty()) {
    return DxbcError(where.byte_offset, where.instr, "an opcode token",
                     "the end of the program");
  }
  return InstructionReader(tokens, where).Read();
}

}  // namespace atomfuzz::isa
