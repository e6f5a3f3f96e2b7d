#include "fuzz/triage/bucket_hits.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "fuzz/atomic_file.h"

namespace atomfuzz::fuzz {
namespace {

namespace fs = std::filesystem;

constexpr absl::string_view kPeerPrefix = "sync.";
// A count no honest campaign reaches: a peer's bigger one is no count.
constexpr int64_t kMaxPeerHits = int64_t{1} << 48;

// Adds one of this store's writers' files to `indices` and `plain`.
void ReadOwnFile(absl::string_view rest, absl::flat_hash_set<uint64_t>& indices,
                 int64_t& plain) {
  while (!rest.empty()) {
    const size_t end = rest.find('\n');
    if (end == absl::string_view::npos) break;  // cut short by a kill
    absl::string_view line = rest.substr(0, end);
    rest.remove_prefix(end + 1);
    uint64_t index = 0;
    int64_t n = 0;
    if (line == "+") {
      ++plain;
    } else if (absl::ConsumePrefix(&line, "@") &&
               absl::SimpleAtoi(line, &index)) {
      indices.insert(index);
    } else if (absl::SimpleAtoi(line, &n) && n > 0) {
      plain += n;  // a count, as older stores wrote them
    }
  }
}

}  // namespace

HitsByCampaign ReadHits(const std::string& dir) {
  HitsByCampaign hits;
  absl::flat_hash_set<uint64_t> indices;
  int64_t plain = 0;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (absl::StrContains(name, ".tmp.")) continue;
    absl::string_view peer = name;
    if (absl::ConsumePrefix(&peer, kPeerPrefix)) {
      // One number: a peer's file of any other size is not one.
      absl::StatusOr<std::string> text = ReadWholeFile(e.path().string(), 64);
      int64_t n = 0;
      if (text.ok() && IsSyncName(peer) &&
          absl::SimpleAtoi(absl::StripAsciiWhitespace(*text), &n) && n > 0 &&
          n < kMaxPeerHits) {
        hits[std::string(peer)] = n;
      }
      continue;
    }
    absl::StatusOr<std::string> text = ReadWholeFile(e.path().string());
    if (text.ok()) ReadOwnFile(*text, indices, plain);
  }
  const int64_t own = plain + static_cast<int64_t>(indices.size());
  if (own > 0) hits[""] = own;
  return hits;
}

int64_t TotalHits(const HitsByCampaign& hits) {
  int64_t total = 0;
  for (const auto& [campaign, n] : hits) total += n;
  return total;
}

std::string PeerHitsFileName(absl::string_view peer) {
  return absl::StrCat(kPeerPrefix, peer);
}

bool IsSyncName(absl::string_view name) {
  return !name.empty() && name.size() <= 64 && name[0] != '.' &&
         std::all_of(name.begin(), name.end(), [](char c) {
           return absl::ascii_isalnum(static_cast<unsigned char>(c)) ||
                  c == '_' || c == '.' || c == '-';
         });
}

}  // namespace atomfuzz::fuzz
