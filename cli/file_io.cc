#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "absl/flags/flag.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "fuzz/atomic_file.h"

namespace atomfuzz::cli {

bool ReadFile(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "%s: cannot open: %s\n", path.c_str(),
                 std::strerror(errno));
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

bool WriteFileAtomically(const std::string& path, absl::string_view text) {
  // One implementation for the CLI and the finding store (fuzz/atomic_file).
  const absl::Status s = fuzz::WriteFileAtomically(path, text);
  if (!s.ok()) std::fprintf(stderr, "%s\n", std::string(s.message()).c_str());
  return s.ok();
}

int WriteOutput(absl::string_view text) {
  const std::string out = absl::GetFlag(FLAGS_out);
  if (out.empty() || out == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return kExitOk;
  }
  return WriteFileAtomically(out, text) ? kExitOk : kExitBadInput;
}

}  // namespace atomfuzz::cli
