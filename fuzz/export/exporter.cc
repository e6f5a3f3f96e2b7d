#include "fuzz/export/exporter.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "fuzz/export/amber_script.h"
#include "fuzz/export/c_reproducer.h"
#include "fuzz/export/canary.h"
#include "fuzz/export/export_json.h"
#include "fuzz/export/reproducer_data.h"
#include "isa/dxbc.h"
#include "targets/trace_instrumentation.h"
#include "targets/vulkan/case_shader.h"

namespace atomfuzz::fuzz {
namespace {

struct FormatRow {
  ExportFormat format;
  absl::string_view name;
  absl::string_view extension;
};
constexpr FormatRow kFormats[] = {
    {ExportFormat::kVulkanC, "vulkan-c", ".c"},
    {ExportFormat::kD3d12C, "d3d12-c", ".c"},
    {ExportFormat::kD3d11C, "d3d11-c", ".c"},
    {ExportFormat::kAmber, "amber", ".amber"},
    {ExportFormat::kJson, "json", ".json"},
};

const FormatRow& RowOf(ExportFormat f) {
  for (const FormatRow& r : kFormats)
    if (r.format == f) return r;
  return kFormats[0];
}

bool WantsSsbo(const ExportOptions& o) {
  return std::find(o.targets.begin(), o.targets.end(), "vulkan-ssbo") !=
         o.targets.end();
}

std::vector<BoundSlot> BoundSlots(const isa::Case& c) {
  std::vector<BoundSlot> out;
  for (const targets::vulkan::UavBinding& b : targets::vulkan::BindingsOf(c))
    out.push_back({b.slot, b.counter});
  return out;
}

// The SPIR-V the vulkan target runs (without its trace instrumentation: a
// reproducer checks final words), and what vkd3d and spirv-val said of it.
absl::StatusOr<CShader> VulkanShader(const isa::Case& c, bool ssbo) {
  const targets::vulkan::BufferUavMode mode =
      ssbo ? targets::vulkan::BufferUavMode::kSsbo
           : targets::vulkan::BufferUavMode::kTexel;
  // In a child: vkd3d-shader crashes on some shaders (docs/findings.md).
  targets::vulkan::CaseShader compiled =
      targets::vulkan::CompileCaseInChild(c, mode);
  if (!compiled.compiler.ok()) return compiled.compiler;
  CShader out;
  out.ssbo = ssbo;
  if (compiled.spirv.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "there is no SPIR-V to export: ",
        compiled.refused ? compiled.refused->message
                         : std::string("vkd3d-shader returned none"),
        " (export --format=d3d12-c gives vkd3d the shader)"));
  }
  if (compiled.refused) {
    absl::StrAppend(&out.notes,
                    "Not valid SPIR-V (a driver may run it "
                    "anyway; `spirv-val` on repro_spirv says "
                    "why):\n  ",
                    compiled.refused->message, "\n");
  }
  if (!compiled.vkd3d_messages.empty())
    absl::StrAppend(&out.notes, "vkd3d-shader said:\n", compiled.vkd3d_messages,
                    "\n");
  if (compiled.array_strides_dropped > 0) {
    absl::StrAppend(&out.notes,
                    "Repaired as atomfuzz's vulkan-ssbo target "
                    "does: ",
                    compiled.array_strides_dropped,
                    " repeated ArrayStride decorations dropped (vkd3d 1.2, "
                    "docs/findings.md).\n");
  }
  out.spirv = std::move(compiled.spirv);
  return out;
}

}  // namespace

std::optional<ExportFormat> ExportFormatFromName(absl::string_view name) {
  for (const FormatRow& r : kFormats)
    if (r.name == name) return r.format;
  return std::nullopt;
}

absl::string_view ExportFormatName(ExportFormat f) { return RowOf(f).name; }

std::string ExportFormatList() {
  std::string out;
  for (const FormatRow& r : kFormats)
    absl::StrAppend(&out, out.empty() ? "" : ", ", r.name);
  return out;
}

std::string DefaultExportName(absl::string_view case_file, ExportFormat f) {
  return absl::StrCat(FileStem(case_file), RowOf(f).extension);
}

namespace {
absl::StatusOr<Exported> ExportCaseOnce(const isa::Case& c,
                                        const ExportOptions& options,
                                        bool canary_allowed);
}  // namespace

absl::StatusOr<Exported> ExportCase(const isa::Case& c,
                                    const ExportOptions& options) {
  return ExportCaseOnce(c, options, /*canary_allowed=*/true);
}

namespace {

absl::StatusOr<Exported> ExportCaseOnce(const isa::Case& c,
                                        const ExportOptions& options,
                                        bool canary_allowed) {
  Exported out;
  // The C and Amber reproducers build a compute pipeline: a draw written
  // as one would be a wrong reproducer, so none is written.
  if (c.shader.pixel() && options.format != ExportFormat::kJson) {
    return absl::FailedPreconditionError(
        "a ps_5_0 case exports as json only for now: the vulkan-c, d3d12-c, "
        "d3d11-c and amber reproducers dispatch compute shaders "
        "(docs/export.md)");
  }
  if (options.format == ExportFormat::kJson) {
    absl::StatusOr<std::string> json =
        ExportJson(c, options.targets, options.run);
    if (!json.ok()) return json.status();
    out.text = *std::move(json);
    return out;
  }
  if (options.returns) {
    // The instrumented case is itself a case: its log's words are checked
    // like any other (a return that races with no other thread is one
    // value; racing ones are any).
    absl::StatusOr<targets::InstrumentedCase> ic =
        targets::InstrumentForTrace(c);
    if (!ic.ok()) return ic.status();
    isa::Case logged = std::move(ic->instrumented);
    logged.description.push_back(absl::StrCat(
        "Instrumented by atomfuzz export --returns: u", ic->layout.log_slot,
        " logs each thread's atomics and their returned values "
        "(layout: targets/trace_instrumentation.h): record of thread t at "
        "words [t * ",
        ic->layout.record_words, ", +", ic->layout.record_words,
        "), loop entries from word ", ic->layout.entries_base, "."));
    ExportOptions plain = options;
    plain.returns = false;
    return ExportCaseOnce(logged, plain, canary_allowed);
  }
  const std::string target =
      options.targets.empty() ? std::string() : options.targets.front();
  absl::StatusOr<ReproData> data = ReproDataOf(c, BoundSlots(c));
  if (!data.ok()) return data.status();
  if (data->checks.empty() && canary_allowed &&
      options.format != ExportFormat::kAmber) {
    // Nothing to check: a skipped dispatch would PASS. A canary says
    // whether the shader ran (canary.h).
    absl::StatusOr<WithCanary> canaried = AddCanary(c);
    if (canaried.ok()) {
      absl::StatusOr<Exported> e =
          ExportCaseOnce(canaried->c, options, /*canary_allowed=*/false);
      if (e.ok() || !absl::IsFailedPrecondition(e.status())) return e;
    }
  }
  switch (options.format) {
    case ExportFormat::kVulkanC:
    case ExportFormat::kAmber: {
      absl::StatusOr<CShader> shader = VulkanShader(c, WantsSsbo(options));
      if (!shader.ok()) return shader.status();
      if (options.format == ExportFormat::kAmber) {
        absl::StatusOr<std::string> script =
            AmberScript(c, *data, shader->spirv, shader->ssbo);
        if (!script.ok()) return script.status();
        out.text = *std::move(script);
        out.run = absl::StrCat(
            "amber -d ", options.file.substr(options.file.rfind('/') + 1));
        return out;
      }
      out.text =
          CReproducer(CApi::kVulkan, c, *data, *shader, options.file, target);
      out.build = CBuildCommand(CApi::kVulkan, options.file);
      out.run = CRunCommand(CApi::kVulkan, options.file, target);
      return out;
    }
    case ExportFormat::kD3d12C:
    case ExportFormat::kD3d11C: {
      absl::StatusOr<std::vector<uint8_t>> dxbc = isa::EncodeDxbc(c.shader);
      if (!dxbc.ok()) return dxbc.status();
      CShader shader;
      shader.dxbc = *std::move(dxbc);
      const CApi api =
          options.format == ExportFormat::kD3d12C ? CApi::kD3d12 : CApi::kD3d11;
      out.text = CReproducer(api, c, *data, shader, options.file, target);
      out.build = CBuildCommand(api, options.file);
      out.run = CRunCommand(api, options.file, target);
      return out;
    }
    case ExportFormat::kJson: break;
  }
  return out;
}

}  // namespace

}  // namespace atomfuzz::fuzz
