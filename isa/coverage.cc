#include "isa/coverage.h"

#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace atomfuzz::isa {
namespace {

constexpr absl::string_view kKindNames[kTargetKindCount] = {
    "u-raw",   "u-struct",   "u-buffer", "u-tex1d", "u-tex1darr",
    "u-tex2d", "u-tex2darr", "u-tex3d",  "g-raw",   "g-struct"};

std::optional<TargetKind> KindOfTypedDim(Dim d) {
  switch (d) {
    case Dim::kBuffer: return TargetKind::kUavBuffer;
    case Dim::kTexture1D: return TargetKind::kUavTexture1D;
    case Dim::kTexture1DArray: return TargetKind::kUavTexture1DArray;
    case Dim::kTexture2D: return TargetKind::kUavTexture2D;
    case Dim::kTexture2DArray: return TargetKind::kUavTexture2DArray;
    case Dim::kTexture3D: return TargetKind::kUavTexture3D;
    default: return std::nullopt;
  }
}

}  // namespace

absl::string_view TargetKindName(TargetKind k) {
  return kKindNames[static_cast<int>(k)];
}

bool IsLegal(Op op, TargetKind k) {
  const OpcodeInfo& row = Info(op);
  switch (k) {
    case TargetKind::kUavRaw: return row.memories & kUavRaw;
    case TargetKind::kUavStructured: return row.memories & kUavStructured;
    case TargetKind::kTgsmRaw: return row.memories & kTgsmRaw;
    case TargetKind::kTgsmStructured: return row.memories & kTgsmStructured;
    default: return row.memories & kUavTyped;
  }
}

std::optional<TargetKind> DeclaredKind(const Instruction& dcl) {
  if (dcl.operands.empty()) return std::nullopt;
  switch (dcl.op) {
    case Op::kDclUavRaw: return TargetKind::kUavRaw;
    case Op::kDclUavStructured: return TargetKind::kUavStructured;
    case Op::kDclUavTyped: return KindOfTypedDim(dcl.dim);
    case Op::kDclTgsmRaw: return TargetKind::kTgsmRaw;
    case Op::kDclTgsmStructured: return TargetKind::kTgsmStructured;
    default: return std::nullopt;
  }
}

std::map<std::pair<RegFile, uint32_t>, TargetKind> DeclaredKinds(
    const Program& program) {
  std::map<std::pair<RegFile, uint32_t>, TargetKind> kinds;
  for (const Instruction& i : program.instructions) {
    if (std::optional<TargetKind> k = DeclaredKind(i)) {
      kinds[{i.operands[0].file, i.operands[0].index}] = *k;
    }
  }
  return kinds;
}

void CoverageMatrix::Add(const Case& c) {
  const auto kinds = DeclaredKinds(c.shader);
  for (const Instruction& i : c.shader.instructions) {
    const OpcodeInfo& row = i.info();
    if (!row.is_atomic()) continue;
    const Operand& target =
        i.operands[static_cast<size_t>(row.operand_with_role(Role::kTarget))];
    auto it = kinds.find({target.file, target.index});
    if (it != kinds.end()) ++counts_[{i.op, it->second}];
  }
}

int CoverageMatrix::Count(Op op, TargetKind k) const {
  auto it = counts_.find({op, k});
  return it == counts_.end() ? 0 : it->second;
}

std::string CoverageMatrix::Render() const {
  std::string out = absl::StrFormat("%-20s", "atomic");
  for (int k = 0; k < kTargetKindCount; ++k) {
    absl::StrAppend(&out, absl::StrFormat(" %10s", kKindNames[k]));
  }
  out += "\n";
  for (const OpcodeInfo& row : AllOpcodes()) {
    if (!row.is_atomic()) continue;
    absl::StrAppend(&out, absl::StrFormat("%-20s", row.mnemonic));
    for (int k = 0; k < kTargetKindCount; ++k) {
      const auto kind = static_cast<TargetKind>(k);
      const std::string cell =
          IsLegal(row.op, kind) ? absl::StrCat(Count(row.op, kind)) : "-";
      absl::StrAppend(&out, absl::StrFormat(" %10s", cell));
    }
    out += "\n";
  }
  return out;
}

}  // namespace atomfuzz::isa
