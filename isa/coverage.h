// Which atomics a set of cases exercises on which memory kinds: the matrix
// `atomfuzz coverage` prints and the corpus test checks.
#ifndef ATOMFUZZ_ISA_COVERAGE_H_
#define ATOMFUZZ_ISA_COVERAGE_H_

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "isa/case_file.h"
#include "isa/opcode_table.h"

namespace atomfuzz::isa {

// Memory kinds at the granularity the corpus must cover (spec 1.2).
enum class TargetKind : uint8_t {
  kUavRaw,
  kUavStructured,
  kUavBuffer,
  kUavTexture1D,
  kUavTexture1DArray,
  kUavTexture2D,
  kUavTexture2DArray,
  kUavTexture3D,
  kTgsmRaw,
  kTgsmStructured,
};
inline constexpr int kTargetKindCount = 10;
absl::string_view TargetKindName(TargetKind k);
// Whether an op may legally target a kind (counters: structured u# only).
bool IsLegal(Op op, TargetKind k);
// The kind of memory `dcl` declares in its first operand, if it declares
// one (a typed UAV of a dimension the matrix has no column for: none).
std::optional<TargetKind> DeclaredKind(const Instruction& dcl);
// The kind of every memory the program declares, by (u# or g#, slot); a
// later declaration of a slot wins.
std::map<std::pair<RegFile, uint32_t>, TargetKind> DeclaredKinds(
    const Program& program);

class CoverageMatrix {
 public:
  void Add(const Case& c);
  int Count(Op op, TargetKind k) const;
  // Text table: one row per atomic, one column per kind; '-' where illegal.
  std::string Render() const;

 private:
  std::map<std::pair<Op, TargetKind>, int> counts_;
};

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_COVERAGE_H_
