// atomfuzz triage: the buckets of a campaign directory's finding store, most
// hit first, as a table or (--json) for tools.
#include <cstdio>

#include "absl/flags/flag.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "fuzz/triage.h"

namespace atomfuzz::cli {

int RunTriage(const std::vector<std::string>& dirs) {
  if (dirs.size() != 1) {
    std::fprintf(stderr, "atomfuzz triage: expected one DIR (a campaign's --out), found %zu\n",
                 dirs.size());
    return kExitBadInput;
  }
  absl::StatusOr<std::vector<fuzz::BucketInfo>> buckets = fuzz::LoadTriage(dirs[0]);
  if (!buckets.ok()) {
    std::fprintf(stderr, "atomfuzz triage: %s\n", std::string(buckets.status().message()).c_str());
    return kExitBadInput;
  }
  const std::string text =
      absl::GetFlag(FLAGS_json) ? fuzz::TriageJson(*buckets) : fuzz::TriageTable(*buckets);
  std::fputs(text.c_str(), stdout);
  return kExitOk;
}

}  // namespace atomfuzz::cli
