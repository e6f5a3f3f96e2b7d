#include "isa/printer.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "isa/spelling.h"
#include "isa/text_cursor.h"

namespace atomfuzz::isa {
namespace {

std::string MaskLetters(uint8_t mask) {
  std::string s;
  for (int c = 0; c < 4; ++c) {
    if (mask & (1u << c)) s += ComponentLetter(c);
  }
  return s;
}

std::string TypeList(const std::array<ReturnType, 4>& types) {
  return absl::StrCat("(", ReturnTypeName(types[0]), ",",
                      ReturnTypeName(types[1]), ",", ReturnTypeName(types[2]),
                      ",", ReturnTypeName(types[3]), ")");
}

std::string Mnemonic(const Instruction& inst) {
  const OpcodeInfo& row = inst.info();
  switch (row.suffix) {
    case Suffix::kSyncFlags:
      return SyncMnemonic(inst.sync_flags);
    case Suffix::kGlc:
      return absl::StrCat(row.mnemonic, inst.glc ? "_glc" : "");
    case Suffix::kGlcOpc:
      return absl::StrCat(row.mnemonic, inst.glc ? "_glc" : "",
                          inst.opc ? "_opc" : "");
    case Suffix::kDimGlc:
      return absl::StrCat(row.mnemonic, "_", DimName(inst.dim),
                          inst.glc ? "_glc" : "", " ", TypeList(inst.types));
    case Suffix::kIndexable:
      if (!inst.indexable) return std::string(row.mnemonic);
      return absl::StrCat(
          row.mnemonic, "_indexable(", DimName(inst.indexable->dim),
          inst.indexable->dim == Dim::kStructuredBuffer
              ? absl::StrCat(", stride=", inst.indexable->stride)
              : "",
          ")", TypeList(inst.indexable->types));
    case Suffix::kGlobalFlags: {
      std::vector<absl::string_view> names;
      for (GlobalFlag f : kAllGlobalFlags) {
        if (inst.global_flags & f) names.push_back(GlobalFlagName(f));
      }
      if (names.empty()) return std::string(row.mnemonic);
      return absl::StrCat(row.mnemonic, " ", absl::StrJoin(names, " | "));
    }
    case Suffix::kNone:
      break;
  }
  return std::string(row.mnemonic);
}

// How far an instruction shifts the indentation of itself and what follows.
void Indentation(Op op, int& before, int& after) {
  before = after = 0;
  switch (op) {
    case Op::kIfZ: case Op::kIfNz: case Op::kLoop: case Op::kSwitch:
      after = 1;
      break;
    case Op::kElse:
      before = -1;
      after = 1;
      break;
    case Op::kEndIf: case Op::kEndLoop: case Op::kEndSwitch:
      before = -1;
      break;
    default:
      break;
  }
}

}  // namespace

std::string PrintOperand(const Operand& op) {
  std::string s;
  switch (op.file) {
    case RegFile::kImmediate: {
      std::vector<std::string> vals;
      for (int i = 0; i < op.value_count; ++i) {
        vals.push_back(FormatLiteral(op.values[static_cast<size_t>(i)]));
      }
      return absl::StrCat("l(", absl::StrJoin(vals, ", "), ")");
    }
    case RegFile::kNumber:
      return absl::StrCat(op.index);
    case RegFile::kNull:
      return "null";
    default:
      s = std::string(RegFileName(op.file));
      if (HasIndex(op.file)) absl::StrAppend(&s, op.index);
      break;
  }
  // u0[3] (an immediate index on u#/g#) parses; keep it so that it prints
  // back unchanged. u0[0] is u0.
  const bool bracket = op.file == RegFile::kIndexableTemp || op.relative ||
                       (op.offset != 0 && (op.file == RegFile::kUav ||
                                           op.file == RegFile::kTgsm));
  if (bracket) {
    s += "[";
    if (op.relative) {
      absl::StrAppend(&s, "r", op.relative->temp, ".",
                      std::string(1, ComponentLetter(op.relative->component)),
                      " + ");
    }
    absl::StrAppend(&s, op.offset, "]");
  }
  switch (op.selection) {
    case Selection::kMask:
      absl::StrAppend(&s, ".", MaskLetters(op.mask));
      break;
    case Selection::kSwizzle:
      s += '.';
      for (uint8_t c : op.swizzle) s += ComponentLetter(c);
      break;
    case Selection::kSelect1:
      s += '.';
      s += ComponentLetter(op.swizzle[0]);
      break;
    case Selection::kNone:
      break;
  }
  return s;
}

std::string PrintInstruction(const Instruction& inst) {
  std::string s = Mnemonic(inst);
  for (size_t i = 0; i < inst.operands.size(); ++i) {
    absl::StrAppend(&s, i == 0 ? " " : ", ", PrintOperand(inst.operands[i]));
  }
  return s;
}

std::string Print(const Program& program) {
  std::string out = absl::StrCat("cs_", program.major, "_", program.minor, "\n");
  int depth = 0;
  for (const Instruction& inst : program.instructions) {
    int before, after;
    Indentation(inst.op, before, after);
    depth = std::max(0, depth + before);
    out.append(static_cast<size_t>(depth) * 2, ' ');
    absl::StrAppend(&out, PrintInstruction(inst), "\n");
    depth += after;
  }
  return out;
}

}  // namespace atomfuzz::isa
