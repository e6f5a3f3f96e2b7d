// `atomfuzz export`: a case as a reproducer its upstream can run without
// atomfuzz (docs/export.md). Formats:
//   vulkan-c  C against the Vulkan loader, with the SPIR-V the vulkan target
//             generated (for Mesa and driver developers)
//   d3d12-c   C against vkd3d's D3D12 (libvkd3d, libvkd3d-utils), with the
//             DXBC (for vkd3d developers)
//   d3d11-c   C against D3D11, built with mingw-w64, run under Wine (for
//             Wine developers)
//   amber     an Amber script for the Vulkan CTS
//   json      the case, what the spec allows, each target's outcome and
//             verdict
// Each checks what the spec allows of a target that gives no trace: each
// word one value or one of a set (racing atomics), never one order's.
#ifndef ATOMFUZZ_FUZZ_EXPORT_EXPORTER_H_
#define ATOMFUZZ_FUZZ_EXPORT_EXPORTER_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "fuzz/runner.h"
#include "isa/case_file.h"

namespace atomfuzz::fuzz {

enum class ExportFormat : uint8_t { kVulkanC, kD3d12C, kD3d11C, kAmber, kJson };

std::optional<ExportFormat> ExportFormatFromName(absl::string_view name);
absl::string_view ExportFormatName(ExportFormat f);
// "vulkan-c, d3d12-c, d3d11-c, amber, json"
std::string ExportFormatList();
// The file name a reproducer of `case_file` is saved as by default:
// x.case -> x.c (x.amber, x.json).
std::string DefaultExportName(absl::string_view case_file, ExportFormat f);

struct ExportOptions {
  ExportFormat format = ExportFormat::kVulkanC;
  // The name the reproducer will be saved as: its build and run commands
  // name it.
  std::string file = "repro.c";
  // vulkan-c, amber: "vulkan-ssbo" binds buffer UAVs as storage buffers
  // (anything else: texel buffers). json: the targets to run it on.
  std::vector<std::string> targets;
  RunOptions run;  // json: the targets' settings
  // C and Amber: log each atomic's returned value as the vulkan target
  // does (targets/trace_instrumentation.h) and check the log's words the
  // spec defines, for a finding whose wrong values are returns that reach
  // no final word.
  bool returns = false;
};

struct Exported {
  std::string text;
  std::string build;  // the command that builds it ("" for amber, json)
  std::string run;    // the command that runs it
};

// FailedPrecondition where the case cannot be exported in that format (a
// shader vkd3d refuses has no SPIR-V; Amber cannot fill textures); errors
// of the oracle or a target otherwise.
absl::StatusOr<Exported> ExportCase(const isa::Case& c,
                                    const ExportOptions& options);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_EXPORT_EXPORTER_H_
