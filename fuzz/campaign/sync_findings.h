// Findings across the campaigns of a sync directory (campaign_sync.h). Each
// campaign publishes the buckets it hit itself, and adopts those its peers
// published into its own store (FindingStore::Adopt):
//
//   DIR/<name>/findings/<id>/bucket.txt      copies of its bucket's files
//   DIR/<name>/findings/<id>/original.case
//   DIR/<name>/findings/<id>/reduced.case
//   DIR/<name>/findings/<id>/report.txt
//   DIR/<name>/findings/<id>/hits/sync.<name>  the hits it counted itself
//
// Every file is replaced whole (temp file + rename), the hits file last: a
// bucket without it is a publish in flight, skipped until it is whole. A
// peer's bucket is adopted only if its key signs to its id, and its cases
// parse, so a peer cannot make two buckets of one key.
#ifndef ATOMFUZZ_FUZZ_CAMPAIGN_SYNC_FINDINGS_H_
#define ATOMFUZZ_FUZZ_CAMPAIGN_SYNC_FINDINGS_H_

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "fuzz/campaign/sync_peers.h"
#include "fuzz/triage/finding_store.h"

namespace atomfuzz::fuzz {

// The hash of each text written under DIR/<name>/ by this process, by path,
// so that a publish writes only what changed.
using PublishedTexts = absl::flat_hash_map<std::string, uint64_t>;

// Publishes into `mine` (DIR/<name>) each bucket of `store` with hits of
// its own. Errors: a write into the sync directory failed.
absl::Status PublishFindings(const FindingStore& store, const std::string& mine,
                             const std::string& name,
                             PublishedTexts& published);

// The bucket `peer` published in `dir` (DIR/<peer>/findings/<id>), checked;
// InvalidArgument naming the file that fails a check, Unavailable while it
// has no hits file (a publish in flight).
absl::StatusOr<PeerBucket> ReadPeerBucket(const std::string& dir,
                                          const std::string& peer,
                                          const std::string& id);

struct AdoptedBucket {
  std::string peer;
  BucketInfo bucket;  // as the store holds it now
};

// What a peer's bucket looked like when last adopted: its hits, and the
// size and time of its reduced.case. Unchanged, it is not read again.
using PeerBucketStamp = std::tuple<int64_t, int64_t, int64_t>;
using AdoptedStamps =
    absl::flat_hash_map<std::pair<std::string, std::string>, PeerBucketStamp>;

// Adopts into `store` every bucket `peers` published in `sync_dir` that is
// new or changed since `stamps`; returns the buckets it created. A peer's
// bad bucket is skipped with a warning. Errors: a write into the store.
absl::StatusOr<std::vector<AdoptedBucket>> ImportFindings(
    FindingStore& store, const std::string& sync_dir,
    const std::vector<std::string>& peers, AdoptedStamps& stamps,
    SyncWarnings& warnings);

// The buckets of the campaign in `out` as triage lists them: its store's,
// merged with what the peers of its sync directory (OUT/sync/identity)
// have published since, by id, each campaign's hits once (the larger of
// the imported and the published count). The store alone for a campaign
// that never synced, or (with a warning) whose sync directory is gone.
absl::StatusOr<std::vector<BucketInfo>> LoadSyncedTriage(const std::string& out,
                                                         std::FILE* log);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_CAMPAIGN_SYNC_FINDINGS_H_
