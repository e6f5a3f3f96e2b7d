// atomfuzz dxbc: a case's shader as a cs_5_0 DXBC container (spec 5), for
// vkd3d-shader, the D3D runtimes or any other consumer of fxc output.
#include <unistd.h>

#include <cstdio>

#include "absl/flags/flag.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "cli/load_case.h"
#include "isa/dxbc.h"

namespace atomfuzz::cli {

int RunDxbc(const std::vector<std::string>& args) {
  if (args.size() != 1) {
    std::fprintf(stderr,
                 "atomfuzz dxbc: expected one FILE.case, found %zu "
                 "arguments\n",
                 args.size());
    return kExitBadInput;
  }
  const std::string out = absl::GetFlag(FLAGS_out);
  // Binary on a terminal is never what the user meant; a pipe or -o is.
  if ((out.empty() || out == "-") && isatty(STDOUT_FILENO)) {
    std::fprintf(stderr,
                 "atomfuzz dxbc: refusing to write binary DXBC to a "
                 "terminal; give -o OUT.dxbc or redirect stdout\n");
    return kExitBadInput;
  }
  isa::Case c;
  if (LoadCase(args[0], absl::GetFlag(FLAGS_validate), c) != LoadResult::kOk) {
    return kExitBadInput;
  }
  absl::StatusOr<std::vector<uint8_t>> bytes = isa::EncodeDxbc(c.shader);
  if (!bytes.ok()) {
    std::fprintf(stderr, "%s: %s\n", args[0].c_str(),
                 std::string(bytes.status().message()).c_str());
    return kExitBadInput;
  }
  return WriteOutput(absl::string_view(
      reinterpret_cast<const char*>(bytes->data()), bytes->size()));
}

}  // namespace atomfuzz::cli
