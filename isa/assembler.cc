#include "isa/assembler.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "isa/operand_reader.h"
#include "isa/spelling.h"
#include "isa/text_cursor.h"

namespace atomfuzz::isa {
namespace {

// What to ask for when `word` is no mnemonic: the suffix grammar of the row it
// starts with (dcl_uav_typed_texture4d, sync_g_g), else any instruction.
std::string ExpectedMnemonic(absl::string_view word) {
  for (size_t cut = word.size(); cut != absl::string_view::npos && cut > 0;
       cut = word.rfind('_', cut - 1)) {
    const OpcodeInfo* row = FindMnemonic(word.substr(0, cut));
    if (row == nullptr) continue;
    switch (row->suffix) {
      case Suffix::kSyncFlags: return "sync[_uglobal|_ugroup][_g][_t]";
      case Suffix::kGlc: return absl::StrCat(row->mnemonic, "[_glc]");
      case Suffix::kGlcOpc: return absl::StrCat(row->mnemonic, "[_glc][_opc]");
      case Suffix::kDimGlc:
        return absl::StrCat(row->mnemonic,
                            "_<dim>[_glc] with <dim> buffer, texture1d, "
                            "texture1darray, texture2d, texture2darray or "
                            "texture3d");
      case Suffix::kIndexable:
        return absl::StrCat(row->mnemonic, " or ", row->mnemonic,
                            "_indexable(...)(...)");
      case Suffix::kGlobalFlags:
      case Suffix::kInterpolation: return std::string(row->mnemonic);
      case Suffix::kNone: break;
    }
  }
  return "an instruction";
}

class LineAssembler {
 public:
  LineAssembler(TextCursor& cur, int line, DiagnosticSink& sink)
      : cur_(cur), line_(line), sink_(sink) {}

  std::optional<Instruction> Parse() {
    Instruction inst;
    inst.line = line_;
    const int mnemonic_col = cur_.col();
    const absl::string_view word = cur_.ReadIdentifier();
    if (word.empty()) return Fail("an instruction", cur_.Found());
    if (!ResolveMnemonic(word, inst)) {
      sink_.Error(line_, mnemonic_col, ExpectedMnemonic(word), Quote(word));
      return std::nullopt;
    }
    if (!ParseSuffixOperands(inst)) return std::nullopt;
    OperandReader reader(cur_, line_, sink_);
    const OpcodeInfo& row = inst.info();
    for (int i = 0; i < row.operand_count(); ++i) {
      if (i > 0 && !cur_.Consume(',')) {
        return Fail(
            absl::StrCat("',' before operand ", i + 1, " of ", row.mnemonic),
            cur_.Found());
      }
      std::optional<Operand> op = reader.Read(row.operands[i].kind);
      if (!op) return std::nullopt;
      inst.operands.push_back(*op);
    }
    if (!cur_.AtEnd()) {
      return Fail(cur_.Peek() == ','
                      ? absl::StrCat("end of line (", row.mnemonic, " takes ",
                                     row.operand_count(), " operands)")
                      : std::string("end of line"),
                  cur_.Found());
    }
    return inst;
  }

 private:
  std::nullopt_t Fail(std::string expected, std::string found) {
    sink_.Error(line_, cur_.col(), std::move(expected), std::move(found));
    return std::nullopt;
  }
  bool Reject(std::string expected, std::string found) {
    Fail(std::move(expected), std::move(found));
    return false;
  }

  // Splits "dcl_uav_structured_glc_opc" into a row and its suffix flags.
  bool ResolveMnemonic(absl::string_view word, Instruction& inst) {
    if (const OpcodeInfo* row = FindMnemonic(word)) {
      inst.op = row->op;
      return row->suffix != Suffix::kDimGlc;  // the dimension is mandatory
    }
    for (size_t cut = word.rfind('_');
         cut != absl::string_view::npos && cut > 0;
         cut = word.rfind('_', cut - 1)) {
      const OpcodeInfo* row = FindMnemonic(word.substr(0, cut));
      if (row && ApplySuffix(*row, word.substr(cut), inst)) {
        inst.op = row->op;
        return true;
      }
    }
    return false;
  }

  // `rest` starts with '_'.
  bool ApplySuffix(const OpcodeInfo& row, absl::string_view rest,
                   Instruction& inst) {
    switch (row.suffix) {
      case Suffix::kSyncFlags: {
        auto flags = SyncFlagsFromSuffix(rest);
        if (!flags) return false;
        inst.sync_flags = *flags;
        return true;
      }
      case Suffix::kGlc: inst.glc = rest == "_glc"; return inst.glc;
      case Suffix::kGlcOpc:
        // vkd3d prints _glc first; the other order is accepted (spec 7.3).
        if (rest == "_glc" || rest == "_glc_opc" || rest == "_opc_glc") {
          inst.glc = true;
        }
        if (rest == "_opc" || rest == "_glc_opc" || rest == "_opc_glc") {
          inst.opc = true;
        }
        return inst.glc || inst.opc;
      case Suffix::kDimGlc: {
        absl::string_view dim = rest.substr(1);
        if (dim.size() > 4 && dim.substr(dim.size() - 4) == "_glc") {
          inst.glc = true;
          dim.remove_suffix(4);
        }
        auto d = DimFromName(dim);
        if (!d || TypedAddressWidth(*d) == 0) return false;
        inst.dim = *d;
        return true;
      }
      case Suffix::kIndexable:
        if (rest != "_indexable") return false;
        inst.indexable = ResourceSuffix{};
        return true;
      case Suffix::kNone:
      case Suffix::kGlobalFlags:
      case Suffix::kInterpolation: return false;
    }
    return false;
  }

  // Parenthesised parts that follow some mnemonics.
  bool ParseSuffixOperands(Instruction& inst) {
    const OpcodeInfo& row = inst.info();
    if (row.suffix == Suffix::kIndexable && inst.indexable) {
      return ParseIndexable(*inst.indexable);
    }
    if (row.suffix == Suffix::kDimGlc) return ParseTypes(inst.types);
    if (row.suffix == Suffix::kGlobalFlags) return ParseGlobalFlags(inst);
    if (row.suffix == Suffix::kInterpolation) return ParseInterpolation(inst);
    return true;
  }

  // "constant", or "linear" [noperspective] [centroid | sample], as fxc
  // prints the mode before the register.
  bool ParseInterpolation(Instruction& inst) {
    const int col = cur_.col();
    std::string words;
    for (absl::string_view w :
         {"constant", "linear", "noperspective", "centroid", "sample"}) {
      if (cur_.ConsumeWord(w))
        absl::StrAppend(&words, words.empty() ? "" : " ", w);
    }
    auto mode = InterpolationFromName(words);
    if (!mode) {
      sink_.Error(line_, col,
                  "an interpolation mode (constant, linear [noperspective] "
                  "[centroid|sample])",
                  words.empty() ? cur_.Found() : Quote(words));
      return false;
    }
    inst.interpolation = *mode;
    return true;
  }

  // (raw_buffer)(mixed,mixed,mixed,mixed) or
  // (structured_buffer, stride=4)(...) or (texture2d)(uint,...).
  bool ParseIndexable(ResourceSuffix& s) {
    if (!cur_.Consume('(')) return Reject("'(' after _indexable", cur_.Found());
    const absl::string_view dim = cur_.ReadIdentifier();
    auto d = DimFromName(dim);
    if (!d) return Reject("a resource dimension", Quote(dim));
    s.dim = *d;
    if (*d == Dim::kStructuredBuffer) {
      if (!cur_.Consume(',') || !cur_.ConsumeWord("stride") ||
          !cur_.Consume('=')) {
        return Reject("', stride=N'", cur_.Found());
      }
      const int col = cur_.col();
      const absl::string_view num = cur_.ReadNumberText();
      auto stride = ParseUnsigned(num);
      if (!stride) {
        sink_.Error(line_, col, "a stride", Quote(num));
        return false;
      }
      s.stride = *stride;
    }
    if (!cur_.Consume(')')) return Reject("')'", cur_.Found());
    return ParseTypes(s.types);
  }

  bool ParseTypes(std::array<ReturnType, 4>& types) {
    if (!cur_.Consume('(')) {
      return Reject("'(' and four component types", cur_.Found());
    }
    for (int i = 0; i < 4; ++i) {
      if (i > 0 && !cur_.Consume(',')) {
        return Reject("',' and four component types", cur_.Found());
      }
      const int col = cur_.col();
      const absl::string_view name = cur_.ReadIdentifier();
      auto t = ReturnTypeFromName(name);
      if (!t) {
        sink_.Error(line_, col,
                    "a component type (uint, sint, float, unorm, snorm, mixed)",
                    name.empty() ? cur_.Found() : Quote(name));
        return false;
      }
      types[static_cast<size_t>(i)] = *t;
    }
    if (!cur_.Consume(')')) return Reject("')'", cur_.Found());
    return true;
  }

  // Zero flags is representable (a generated program may clear them all),
  // so a bare `dcl_globalFlags` reads back as no flags.
  bool ParseGlobalFlags(Instruction& inst) {
    if (cur_.AtEnd()) return true;
    do {
      const int col = cur_.col();
      const absl::string_view name = cur_.ReadIdentifier();
      auto flag = GlobalFlagFromName(name);
      if (!flag) {
        sink_.Error(line_, col, "a global flag such as refactoringAllowed",
                    name.empty() ? cur_.Found() : Quote(name));
        return false;
      }
      inst.global_flags |= *flag;
    } while (cur_.Consume('|'));
    return true;
  }

  TextCursor& cur_;
  int line_;
  DiagnosticSink& sink_;
};

}  // namespace

std::optional<Program> AssembleInto(absl::string_view text, int first_line,
                                    DiagnosticSink& sink) {
  Program program;
  bool seen_version = false;
  const size_t errors_before = sink.error_count();
  int line = first_line - 1;
  for (absl::string_view raw : absl::StrSplit(text, '\n')) {
    ++line;
    if (const size_t c = raw.find("//"); c != absl::string_view::npos) {
      raw = raw.substr(0, c);
    }
    TextCursor cur(raw);
    if (cur.AtEnd()) continue;
    if (!seen_version) {
      const int col = cur.col();
      const absl::string_view word = cur.ReadIdentifier();
      if ((word != "cs_5_0" && word != "ps_5_0") || !cur.AtEnd()) {
        sink.Error(line, col, "'cs_5_0' or 'ps_5_0' as the first line",
                   word.empty() ? cur.Found() : Quote(raw.substr(col - 1)));
        return std::nullopt;  // nothing else can be read sensibly
      }
      program.stage = word == "ps_5_0" ? Stage::kPixel : Stage::kCompute;
      seen_version = true;
      continue;
    }
    if (program.instructions.size() >= kMaxInstructions) {
      sink.Error(line, cur.col(),
                 absl::StrCat("at most ", kMaxInstructions, " instructions"),
                 "more");
      break;
    }
    if (auto inst = LineAssembler(cur, line, sink).Parse()) {
      program.instructions.push_back(std::move(*inst));
    }
  }
  if (!seen_version) {
    sink.Error(line < first_line ? first_line : line, 1,
               "'cs_5_0' or 'ps_5_0' as the first line", "end of file");
  }
  if (sink.error_count() != errors_before) return std::nullopt;
  return program;
}

absl::StatusOr<Program> Assemble(absl::string_view text, absl::string_view file,
                                 int first_line) {
  DiagnosticSink sink{std::string(file)};
  std::optional<Program> program = AssembleInto(text, first_line, sink);
  if (!program) return sink.ToStatus();
  return *std::move(program);
}

}  // namespace atomfuzz::isa
