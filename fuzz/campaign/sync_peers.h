// The other campaigns of a sync directory (campaign_sync.h), and the checks
// everything read from them passes: a peer may be hostile, or killed by a
// full disk, so what it wrote is input like any other. A file that fails a
// check is skipped with a warning naming it (once), never a reason to stop.
#ifndef ATOMFUZZ_FUZZ_CAMPAIGN_SYNC_PEERS_H_
#define ATOMFUZZ_FUZZ_CAMPAIGN_SYNC_PEERS_H_

#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace atomfuzz::fuzz {

// Files of peers past these sizes are no honest campaign's (read with
// ReadWholeFile, which also refuses what is no regular file; the sync
// directory is confined, so no link is followed, confined_paths.h).
inline constexpr size_t kMaxPeerCaseBytes = size_t{16} << 20;
inline constexpr size_t kMaxPeerTextBytes = size_t{4} << 20;

// "atomfuzz sync: skipped PATH: WHY" on `log`, once per path and reason
// (just "skipped WHY" when WHY starts with PATH, as a parser's message).
class SyncWarnings {
 public:
  explicit SyncWarnings(std::FILE* log) : log_(log) {}
  void Skip(const std::string& path, absl::string_view why);

 private:
  std::FILE* log_;
  absl::flat_hash_set<std::string> said_;
};

// The campaigns that published into `sync_dir`, by name, sorted, `me`
// left out: its directories with a sync name (bucket_hits.h); anything
// else there (a link, a file, an odd name) is warned about.
std::vector<std::string> ListPeers(const std::string& sync_dir,
                                   const std::string& me,
                                   SyncWarnings& warnings);

// The names of the regular files in `dir` (links and the temp files of
// writes in flight left out), sorted; `warnings` hears of the links.
std::vector<std::string> RegularFilesIn(const std::string& dir,
                                        SyncWarnings* warnings = nullptr);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_CAMPAIGN_SYNC_PEERS_H_
