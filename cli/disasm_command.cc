// atomfuzz disasm: a DXBC container's shader in fxc syntax (spec 3), the
// form `[shader]` sections and the assembler take.
#include <cstdio>

#include "cli/command.h"
#include "isa/dxbc.h"
#include "isa/printer.h"

namespace atomfuzz::cli {

int RunDisasm(const std::vector<std::string>& args) {
  if (args.size() != 1) {
    std::fprintf(stderr,
                 "atomfuzz disasm: expected one FILE.dxbc, found %zu "
                 "arguments\n",
                 args.size());
    return kExitBadInput;
  }
  std::string bytes;
  if (!ReadFile(args[0], bytes)) return kExitBadInput;
  absl::StatusOr<isa::Program> program = isa::DecodeDxbc(absl::MakeConstSpan(
      reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
  if (!program.ok()) {
    // FILE:+0x60 (instr 3): expected ..., found ... (docs/case-format.md,
    // "DXBC error messages").
    std::fprintf(stderr, "%s:%s\n", args[0].c_str(),
                 std::string(program.status().message()).c_str());
    return kExitBadInput;
  }
  return WriteOutput(isa::Print(*program));
}

}  // namespace atomfuzz::cli
