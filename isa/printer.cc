#include "isa/printer.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "isa/spelling.h"
#include "isa/text_cursor.h"

namespace atomfuzz::isa {
namespace {

std::string TypeList(const std::array<ReturnType, 4>& types) {
  return absl::StrCat("(", ReturnTypeName(types[0]), ",",
                      ReturnTypeName(types[1]), ",", ReturnTypeName(types[2]),
                      ",", ReturnTypeName(types[3]), ")");
}

// Appends the mnemonic with its suffixes.
void AppendMnemonic(std::string& out, const Instruction& inst) {
  const OpcodeInfo& row = inst.info();
  switch (row.suffix) {
    case Suffix::kSyncFlags: out += SyncMnemonic(inst.sync_flags); return;
    case Suffix::kGlc:
      absl::StrAppend(&out, row.mnemonic, inst.glc ? "_glc" : "");
      return;
    case Suffix::kGlcOpc:
      absl::StrAppend(&out, row.mnemonic, inst.glc ? "_glc" : "",
                      inst.opc ? "_opc" : "");
      return;
    case Suffix::kDimGlc:
      absl::StrAppend(&out, row.mnemonic, "_", DimName(inst.dim),
                      inst.glc ? "_glc" : "", " ", TypeList(inst.types));
      return;
    case Suffix::kIndexable:
      if (!inst.indexable) break;
      absl::StrAppend(&out, row.mnemonic, "_indexable(",
                      DimName(inst.indexable->dim),
                      inst.indexable->dim == Dim::kStructuredBuffer
                          ? absl::StrCat(", stride=", inst.indexable->stride)
                          : "",
                      ")", TypeList(inst.indexable->types));
      return;
    case Suffix::kGlobalFlags: {
      std::vector<absl::string_view> names;
      for (GlobalFlag f : kAllGlobalFlags) {
        if (inst.global_flags & f) names.push_back(GlobalFlagName(f));
      }
      if (names.empty()) break;
      absl::StrAppend(&out, row.mnemonic, " ", absl::StrJoin(names, " | "));
      return;
    }
    case Suffix::kInterpolation:
      absl::StrAppend(&out, row.mnemonic, " ",
                      InterpolationName(inst.interpolation));
      return;
    case Suffix::kNone: break;
  }
  out.append(row.mnemonic.data(), row.mnemonic.size());
}

// How far an instruction shifts the indentation of itself and what follows.
void Indentation(Op op, int& before, int& after) {
  before = after = 0;
  switch (op) {
    case Op::kIfZ:
    case Op::kIfNz:
    case Op::kLoop:
    case Op::kSwitch: after = 1; break;
    case Op::kElse:
      before = -1;
      after = 1;
      break;
    case Op::kEndIf:
    case Op::kEndLoop:
    case Op::kEndSwitch: before = -1; break;
    default: break;
  }
}

}  // namespace

namespace {

// The printers below append to one string: the corpus prints every case
// it keeps, and a string per operand and per instruction cost more than
// the text itself.
void AppendOperand(std::string& s, const Operand& op) {
  switch (op.file) {
    case RegFile::kImmediate: {
      s += "l(";
      for (int i = 0; i < op.value_count; ++i) {
        if (i != 0) s += ", ";
        AppendLiteral(s, op.values[static_cast<size_t>(i)]);
      }
      s += ')';
      return;
    }
    case RegFile::kNumber: absl::StrAppend(&s, op.index); return;
    case RegFile::kNull: s += "null"; return;
    default: {
      const absl::string_view name = RegFileName(op.file);
      s.append(name.data(), name.size());
      if (HasIndex(op.file)) absl::StrAppend(&s, op.index);
      break;
    }
  }
  // u0[3] (an immediate index on u#/g#) parses; keep it so that it prints
  // back unchanged. u0[0] is u0.
  const bool bracket = op.file == RegFile::kIndexableTemp || op.relative ||
                       (op.offset != 0 && (op.file == RegFile::kUav ||
                                           op.file == RegFile::kTgsm));
  if (bracket) {
    s += "[";
    if (op.relative) {
      absl::StrAppend(&s, "r", op.relative->temp, ".");
      s += ComponentLetter(op.relative->component);
      s += " + ";
    }
    absl::StrAppend(&s, op.offset, "]");
  }
  switch (op.selection) {
    case Selection::kMask:
      s += '.';
      for (int c = 0; c < 4; ++c) {
        if (op.mask & (1u << c)) s += ComponentLetter(c);
      }
      break;
    case Selection::kSwizzle:
      s += '.';
      for (uint8_t c : op.swizzle) s += ComponentLetter(c);
      break;
    case Selection::kSelect1:
      s += '.';
      s += ComponentLetter(op.swizzle[0]);
      break;
    case Selection::kNone: break;
  }
}

void AppendInstruction(std::string& s, const Instruction& inst) {
  AppendMnemonic(s, inst);
  const OpcodeInfo& row = inst.info();
  for (size_t i = 0; i < inst.operands.size(); ++i) {
    s += i == 0 ? " " : ", ";
    const absl::string_view name =
        i < kMaxOperands && row.operands[i].kind == OperandKind::kInputName
            ? InputNameSpelling(inst.operands[i].index)
            : absl::string_view();
    if (!name.empty()) {
      s.append(name.data(), name.size());
    } else {
      AppendOperand(s, inst.operands[i]);
    }
  }
}

}  // namespace

std::string PrintOperand(const Operand& op) {
  std::string s;
  AppendOperand(s, op);
  return s;
}

std::string PrintInstruction(const Instruction& inst) {
  std::string s;
  AppendInstruction(s, inst);
  return s;
}

std::string Print(const Program& program) {
  std::string out = absl::StrCat(StagePrefix(program.stage), "_", program.major,
                                 "_", program.minor, "\n");
  // About 32 bytes a line: one allocation for most programs.
  out.reserve(out.size() + program.instructions.size() * 40);
  int depth = 0;
  for (const Instruction& inst : program.instructions) {
    int before, after;
    Indentation(inst.op, before, after);
    depth = std::max(0, depth + before);
    // Capped, so that a hostile nest prints in linear size.
    out.append(static_cast<size_t>(std::min(depth, kMaxNesting)) * 2, ' ');
    AppendInstruction(out, inst);
    out += '\n';
    depth += after;
  }
  return out;
}

}  // namespace atomfuzz::isa
