// atomfuzz export: a case as a reproducer that runs without atomfuzz
// (fuzz/export/exporter.h); its build and run commands go to stderr.
#include <cstdio>

#include "absl/flags/flag.h"
#include "absl/strings/str_split.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "cli/load_case.h"
#include "fuzz/export/exporter.h"

namespace atomfuzz::cli {
namespace {

// The targets the reproducer is for: --on, else the case's [metadata]
// target, else (json) the fast target.
std::vector<std::string> TargetsFor(const isa::Case& c) {
  const std::string on = absl::GetFlag(FLAGS_on);
  if (!on.empty()) return absl::StrSplit(on, ',', absl::SkipEmpty());
  for (const auto& [key, value] : c.metadata) {
    if (key == "target" && !value.empty()) return {value};
  }
  return {"fast"};
}

}  // namespace

int RunExport(const std::vector<std::string>& args) {
  if (args.size() != 1) {
    std::fprintf(stderr,
                 "atomfuzz export: expected one FILE.case, found %zu "
                 "arguments\n",
                 args.size());
    return kExitBadInput;
  }
  const std::string name = absl::GetFlag(FLAGS_format);
  const std::optional<fuzz::ExportFormat> format =
      fuzz::ExportFormatFromName(name);
  if (!format) {
    std::fprintf(stderr, "atomfuzz export: --format=%s: expected one of %s\n",
                 name.c_str(), fuzz::ExportFormatList().c_str());
    return kExitBadInput;
  }
  isa::Case c;
  if (LoadCase(args[0], /*validate=*/true, c) != LoadResult::kOk)
    return kExitBadInput;
  fuzz::ExportOptions options;
  options.format = *format;
  const std::string out = absl::GetFlag(FLAGS_out);
  options.file = out.empty() || out == "-"
                     ? fuzz::DefaultExportName(args[0], *format)
                     : out;
  options.targets = TargetsFor(c);
  options.returns = absl::GetFlag(FLAGS_returns);
  if (TargetFlagsInto(options.run)) return kExitOk;
  absl::StatusOr<fuzz::Exported> exported = fuzz::ExportCase(c, options);
  if (!exported.ok()) {
    std::fprintf(stderr, "%s: cannot export as %s: %s\n", args[0].c_str(),
                 name.c_str(),
                 std::string(exported.status().message()).c_str());
    return absl::IsFailedPrecondition(exported.status()) ? kExitCheckFailed
           : absl::IsInvalidArgument(exported.status())  ? kExitBadInput
                                                         : kExitToolFailed;
  }
  const int written = WriteOutput(exported->text);
  if (written != kExitOk) return written;
  if (!exported->build.empty())
    std::fprintf(stderr, "build: %s\n", exported->build.c_str());
  if (!exported->run.empty())
    std::fprintf(stderr, "run:   %s\n", exported->run.c_str());
  return kExitOk;
}

}  // namespace atomfuzz::cli
