#include "fuzz/triage/triage.h"

#include <algorithm>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "isa/json.h"

namespace atomfuzz::fuzz {
namespace {

using isa::JsonString;

std::string Utc(int64_t unix_seconds) {
  if (unix_seconds <= 0) return "?";
  return absl::FormatTime("%Y-%m-%d %H:%M:%S",
                          absl::FromUnixSeconds(unix_seconds),
                          absl::UTCTimeZone());
}

std::string Elapsed(double s) {
  return s < 0 ? "?" : absl::StrFormat("%.1fs", s);
}

// "vm-1f2e 12, vm-88a0 7": each campaign's hits ("" is this store's own),
// or "" when only this store's writers hit the bucket.
std::string HitsByCampaignText(const BucketInfo& b) {
  if (b.hits_by.empty() ||
      (b.hits_by.size() == 1 && b.hits_by.begin()->first.empty()))
    return "";
  return absl::StrJoin(b.hits_by, ", ", [](std::string* out, const auto& kv) {
    absl::StrAppend(out, kv.first.empty() ? "here" : kv.first, " ", kv.second);
  });
}

}  // namespace

absl::StatusOr<std::vector<BucketInfo>> LoadTriage(const std::string& dir) {
  absl::StatusOr<FindingStore> store = FindingStore::OpenReadOnly(dir);
  if (!store.ok()) return store.status();
  absl::StatusOr<std::vector<BucketInfo>> buckets = store->ReadAll();
  if (!buckets.ok()) return buckets.status();
  SortForTriage(*buckets);
  return buckets;
}

void SortForTriage(std::vector<BucketInfo>& buckets) {
  std::stable_sort(buckets.begin(), buckets.end(),
                   [](const BucketInfo& a, const BucketInfo& b) {
                     // Unknown first-seen times (0) sort last among equal
                     // counts.
                     const int64_t ta =
                         a.first_seen_unix > 0 ? a.first_seen_unix : INT64_MAX;
                     const int64_t tb =
                         b.first_seen_unix > 0 ? b.first_seen_unix : INT64_MAX;
                     return std::make_tuple(-a.hits, ta, a.id) <
                            std::make_tuple(-b.hits, tb, b.id);
                   });
}

std::string TriageTable(const std::vector<BucketInfo>& buckets) {
  // A row and its indented details fit 100 columns (paths aside).
  std::string out =
      absl::StrFormat("%-16s %6s  %-14s %-22s %-12s %s\n", "id", "hits",
                      "divergence", "opcode", "resource", "address");
  int64_t hits = 0;
  for (const BucketInfo& b : buckets) {
    hits += b.hits;
    const Signature& s = b.signature;
    absl::StrAppendFormat(&out, "%-16s %6d  %-14s %-22s %-12s %s\n", b.id,
                          b.hits, s.divergence, s.opcode, s.resource,
                          s.address);
    absl::StrAppendFormat(
        &out, "%18s target %s, first seen %s UTC (%s into the campaign)\n", "",
        s.target, Utc(b.first_seen_unix), Elapsed(b.first_seen_elapsed));
    absl::StrAppendFormat(
        &out, "%18s reproducer %s (%d instructions, %d threads)\n", "",
        b.reduced_path, b.reduced_size.instructions, b.reduced_size.threads);
    if (const std::string by = HitsByCampaignText(b); !by.empty())
      absl::StrAppendFormat(&out, "%18s hits by campaign: %s\n", "", by);
    if (!s.cause.empty())
      absl::StrAppendFormat(&out, "%18s cause: %s\n", "", s.cause);
    if (!s.conditions.empty())
      absl::StrAppendFormat(&out, "%18s conditions: %s\n", "", s.conditions);
    if (!b.trigger.empty())
      absl::StrAppendFormat(&out, "%18s trigger: %s\n", "", b.trigger);
    if (!b.known.empty())
      absl::StrAppendFormat(&out, "%18s known: %s\n", "", b.known);
  }
  const auto known =
      std::count_if(buckets.begin(), buckets.end(),
                    [](const BucketInfo& b) { return !b.known.empty(); });
  absl::StrAppendFormat(&out, "%d buckets (%d new, %d known), %d hits\n",
                        buckets.size(), buckets.size() - known, known, hits);
  return out;
}

std::string TriageJson(const std::vector<BucketInfo>& buckets) {
  std::string out = "{\"buckets\": [";
  int64_t hits = 0;
  for (size_t i = 0; i < buckets.size(); ++i) {
    const BucketInfo& b = buckets[i];
    const Signature& s = b.signature;
    hits += b.hits;
    absl::StrAppend(&out, i ? ",\n  " : "\n  ", "{\"id\": ", JsonString(b.id),
                    ", \"key\": ", JsonString(s.Key()),
                    ", \"opcode\": ", JsonString(s.opcode),
                    ", \"resource\": ", JsonString(s.resource),
                    ", \"address\": ", JsonString(s.address),
                    ", \"divergence\": ", JsonString(s.divergence),
                    ", \"target\": ", JsonString(s.target),
                    ", \"cause\": ", JsonString(s.cause),
                    ", \"conditions\": ", JsonString(s.conditions),
                    ", \"trigger\": ", JsonString(b.trigger),
                    ", \"generalised\": ", JsonString(b.generalised),
                    ", \"known\": ", JsonString(b.known),
                    ", \"hits\": ", b.hits, ", \"hits_by_campaign\": {");
    for (auto it = b.hits_by.begin(); it != b.hits_by.end(); ++it) {
      absl::StrAppend(&out, it == b.hits_by.begin() ? "" : ", ",
                      JsonString(it->first), ": ", it->second);
    }
    absl::StrAppend(&out, "}");
    const std::string elapsed =
        b.first_seen_elapsed < 0
            ? "null"
            : absl::StrFormat("%.3f", b.first_seen_elapsed);
    absl::StrAppend(&out, ", \"first_seen\": ", b.first_seen_unix,
                    ", \"first_seen_elapsed\": ", elapsed,
                    ", \"summary\": ", JsonString(b.summary),
                    ", \"reproducer\": ", JsonString(b.reduced_path),
                    ", \"instructions\": ", b.reduced_size.instructions,
                    ", \"threads\": ", b.reduced_size.threads,
                    ", \"resources\": ", b.reduced_size.resources,
                    ", \"words\": ", b.reduced_size.words, "}");
  }
  absl::StrAppend(&out, buckets.empty() ? "" : "\n", "], \"hits\": ", hits,
                  "}\n");
  return out;
}

}  // namespace atomfuzz::fuzz
