#include "fuzz/campaign/sync_peers.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "fuzz/triage/bucket_hits.h"

namespace atomfuzz::fuzz {
namespace fs = std::filesystem;

void SyncWarnings::Skip(const std::string& path, absl::string_view why) {
  if (!said_.insert(absl::StrCat(path, "\n", why)).second) return;
  // A parser's message names the file (and line) already.
  if (absl::StartsWith(why, path)) {
    std::fprintf(log_, "atomfuzz sync: skipped %s\n", std::string(why).c_str());
  } else {
    std::fprintf(log_, "atomfuzz sync: skipped %s: %s\n", path.c_str(),
                 std::string(why).c_str());
  }
  std::fflush(log_);
}

std::vector<std::string> ListPeers(const std::string& sync_dir,
                                   const std::string& me,
                                   SyncWarnings& warnings) {
  std::vector<std::string> peers;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(sync_dir, ec)) {
    const std::string name = e.path().filename().string();
    // The entry itself, not what a link leads to.
    const fs::file_status st = e.symlink_status(ec);
    if (ec) continue;
    if (!fs::is_directory(st)) {
      warnings.Skip(e.path().string(),
                    "expected a campaign's directory, found no directory");
    } else if (!IsSyncName(name)) {
      warnings.Skip(e.path().string(),
                    "expected a campaign's sync name (A-Z a-z 0-9 _ . -)");
    } else if (name != me) {
      peers.push_back(name);
    }
  }
  std::sort(peers.begin(), peers.end());
  return peers;
}

std::vector<std::string> RegularFilesIn(const std::string& dir,
                                        SyncWarnings* warnings) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (absl::StrContains(name, ".tmp.")) continue;  // a write in flight
    const fs::file_status st = e.symlink_status(ec);
    if (ec) continue;
    if (!fs::is_regular_file(st)) {
      if (warnings != nullptr)
        warnings->Skip(e.path().string(), "expected a regular file");
      continue;
    }
    names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace atomfuzz::fuzz
