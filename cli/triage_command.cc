// atomfuzz triage: the buckets of campaign directories' finding stores, most
// hit first, as one table or (--json) for tools; --known marks those
// already written up. A campaign that synced (fuzz --sync) lists the
// buckets its peers published too, each campaign's hits once.
#include <cstdio>

#include "absl/flags/flag.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "fuzz/campaign/sync_findings.h"
#include "fuzz/triage/known_findings.h"
#include "fuzz/triage/triage.h"

namespace atomfuzz::cli {

// Several campaigns' directories (one per target, say) make one table.
int RunTriage(const std::vector<std::string>& dirs) {
  if (dirs.empty()) {
    std::fprintf(
        stderr,
        "atomfuzz triage: expected at least one DIR (a campaign's --out)\n");
    return kExitBadInput;
  }
  std::vector<fuzz::BucketInfo> buckets;
  for (const std::string& dir : dirs) {
    absl::StatusOr<std::vector<fuzz::BucketInfo>> some =
        fuzz::LoadSyncedTriage(dir, stderr);
    if (!some.ok()) {
      std::fprintf(stderr, "atomfuzz triage: %s\n",
                   std::string(some.status().message()).c_str());
      return kExitBadInput;
    }
    buckets.insert(buckets.end(), some->begin(), some->end());
  }
  if (const std::string known_path = absl::GetFlag(FLAGS_known);
      !known_path.empty()) {
    absl::StatusOr<fuzz::KnownFindings> known =
        fuzz::KnownFindings::Load(known_path);
    if (!known.ok()) {
      std::fprintf(stderr, "atomfuzz triage: %s\n",
                   std::string(known.status().message()).c_str());
      return kExitBadInput;
    }
    fuzz::MarkKnown(*known, buckets);
  }
  fuzz::SortForTriage(buckets);
  const std::string text = absl::GetFlag(FLAGS_json)
                               ? fuzz::TriageJson(buckets)
                               : fuzz::TriageTable(buckets);
  std::fputs(text.c_str(), stdout);
  return kExitOk;
}

}  // namespace atomfuzz::cli
