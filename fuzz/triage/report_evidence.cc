#include "fuzz/triage/report_evidence.h"

#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "targets/vulkan/case_shader.h"
#include "targets/vulkan/spirv_disassembly.h"

namespace atomfuzz::fuzz {
namespace {

constexpr size_t kMaxWords = 2000;  // of the tool's words, per source

std::string Indented(absl::string_view text) {
  std::string out;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty()))
    absl::StrAppend(&out, "  ", line, "\n");
  return out;
}

std::string Trimmed(absl::string_view text) {
  if (text.size() <= kMaxWords) return std::string(text);
  return absl::StrCat(text.substr(0, kMaxWords), " ... (",
                      text.size() - kMaxWords, " more bytes)");
}

// The index of the blamed atomic among the shader's atomics (program
// order, which vkd3d keeps), or -1 when the findings blame no atomic.
int BlamedAtomic(const isa::Case& c, const Differential& d) {
  for (const oracle::Finding& f : d.verdict.findings) {
    if (f.instruction < 0 ||
        static_cast<size_t>(f.instruction) >= c.shader.instructions.size())
      continue;
    int k = 0;
    for (int i = 0; i < f.instruction; ++i) {
      const isa::Family family = c.shader.instructions[i].info().family;
      k += family == isa::Family::kAtomic ||
           family == isa::Family::kImmAtomic || family == isa::Family::kCounter;
    }
    return k;
  }
  return -1;
}

// The SPIR-V section of the report: around the k-th atomic, else the
// start of the entry point's body.
std::string SpirvSection(const isa::Case& c, const Differential& d, bool ssbo) {
  targets::vulkan::CaseShader shader = targets::vulkan::CompileCaseInChild(
      c, ssbo ? targets::vulkan::BufferUavMode::kSsbo
              : targets::vulkan::BufferUavMode::kTexel);
  std::string out;
  if (!shader.vkd3d_messages.empty()) {
    absl::StrAppend(&out, "vkd3d-shader said:\n",
                    Indented(Trimmed(shader.vkd3d_messages)));
  }
  if (shader.spirv.empty()) return out;
  absl::StatusOr<std::string> text =
      targets::vulkan::DisassembleSpirv(shader.spirv);
  if (!text.ok()) return out;
  const std::vector<absl::string_view> lines = absl::StrSplit(*text, '\n');
  const int blamed = BlamedAtomic(c, d);
  size_t at = lines.size();
  for (size_t i = 0, seen = 0; blamed >= 0 && i < lines.size(); ++i) {
    if (!absl::StrContains(lines[i], "OpAtomic")) continue;
    if (seen++ == static_cast<size_t>(blamed)) {
      at = i;
      break;
    }
  }
  const bool found = at < lines.size();
  for (size_t i = 0; !found && i < lines.size(); ++i) {
    if (absl::StrContains(lines[i], "OpFunction ")) {
      at = i;
      break;
    }
  }
  if (at >= lines.size()) at = 0;
  absl::StrAppend(
      &out, "generated SPIR-V (vkd3d-shader, ",
      ssbo ? "buffer UAVs as storage buffers" : "buffer UAVs as texel buffers",
      "), ",
      found ? "around the blamed atomic:" : "from the entry point:", "\n",
      Excerpt(*text, at, found ? 10 : 0, found ? 6 : 30));
  return out;
}

}  // namespace

std::string Excerpt(absl::string_view text, size_t at, size_t before,
                    size_t after) {
  const std::vector<absl::string_view> lines = absl::StrSplit(text, '\n');
  std::string out;
  const size_t first = at > before ? at - before : 0;
  for (size_t i = first; i < lines.size() && i <= at + after; ++i)
    absl::StrAppend(&out, i == at ? "=> " : "   ", lines[i], "\n");
  return out;
}

std::string ReportEvidence(const isa::Case& c, const Differential& d,
                           const std::string& target, absl::string_view file) {
  std::string out;
  if (!d.outcome.message.empty()) {
    absl::StrAppend(&out, "\nthe run's own words:\n",
                    Indented(Trimmed(d.outcome.message)));
  }
  const bool vulkan = absl::StartsWith(target, "vulkan");
  const bool ssbo = target == "vulkan-ssbo";
  if (vulkan) absl::StrAppend(&out, "\n", SpirvSection(c, d, ssbo));
  std::vector<std::string> formats;
  if (vulkan) formats = {"vulkan-c", "d3d12-c", "amber"};
  if (absl::StartsWith(target, "wine")) formats = {"d3d11-c"};
  formats.push_back("json");
  absl::StrAppend(&out,
                  "\nreproduce without atomfuzz (export prints how to build "
                  "and run each):\n");
  // Wrong returns reach no final word by themselves: the reproducer logs
  // them as the vulkan target's trace does.
  const bool returns =
      !d.verdict.findings.empty() &&
      d.verdict.findings.front().kind == oracle::FindingKind::kWrongReturn;
  for (const std::string& format : formats) {
    absl::StrAppend(
        &out, "  atomfuzz export --format=", format, " --on=", target,
        returns && format != "json" ? " --returns" : "", " ", file, "\n");
  }
  return out;
}

}  // namespace atomfuzz::fuzz
