// FindingStore::Adopt: buckets other campaigns published, brought into this
// store (campaign_sync.h). Apart from finding_store.cc, which saves what
// this campaign finds.
#include "absl/strings/str_cat.h"
#include "fuzz/atomic_file.h"
#include "fuzz/triage/bucket_hits.h"
#include "fuzz/triage/finding_store.h"

namespace atomfuzz::fuzz {

absl::StatusOr<AdoptResult> FindingStore::Adopt(const PeerBucket& b) {
  if (!IsSyncName(b.peer) || b.hits <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("bucket ", b.id, ": expected a campaign's sync name and ",
                     "its hits, found '", b.peer, "' and ", b.hits));
  }
  const std::string hits_file = absl::StrCat("hits/", PeerHitsFileName(b.peer));
  const std::string hits_line = absl::StrCat(b.hits, "\n");
  AdoptResult result;
  if (!ContainsId(b.id)) {
    // Made whole, the peer's count in it: a kill leaves no bucket without
    // its hits, and the next import makes the same one.
    absl::StatusOr<bool> won = Install(b.id, {
                                                 {"original.case", b.original},
                                                 {"reduced.case", b.reduced},
                                                 {"report.txt", b.report},
                                                 {hits_file, hits_line},
                                                 {"bucket.txt", b.bucket},
                                             });
    if (!won.ok()) return won.status();
    if (*won) {
      result.created = true;
      return result;
    }
  }
  absl::StatusOr<bool> replaced =
      ReplaceIfSmaller(b.id, b.reduced_size, b.reduced, b.report);
  if (!replaced.ok()) return replaced.status();
  result.replaced_reduced = *replaced;
  // Replaced, never appended: the peer's count is its own total.
  if (absl::Status s = WriteFileAtomically(
          absl::StrCat(BucketDir(b.id), "/", hits_file), hits_line, false);
      !s.ok()) {
    return s;
  }
  return result;
}

}  // namespace atomfuzz::fuzz
