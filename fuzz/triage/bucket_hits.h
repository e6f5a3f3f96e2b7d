// Who hit a bucket, read from its hits/ directory (finding_store.h). Each
// file there is one writer's: a worker process of this campaign ("@<case
// index>" or "+" lines, appended), or another campaign whose hits a sync
// imported (hits/sync.<name>, one count, replaced whole by each import, so
// that importing again never adds them twice; campaign_sync.h).
#ifndef ATOMFUZZ_FUZZ_TRIAGE_BUCKET_HITS_H_
#define ATOMFUZZ_FUZZ_TRIAGE_BUCKET_HITS_H_

#include <cstdint>
#include <map>
#include <string>

#include "absl/strings/string_view.h"

namespace atomfuzz::fuzz {

// Hits by campaign: "" for this store's own writers, else a peer's sync
// name. Their sum is the bucket's hits.
using HitsByCampaign = std::map<std::string, int64_t>;

// The hits of the bucket whose hits directory is `dir`. A case index
// counts once across this store's writers (a resumed campaign runs the
// cases past its saved state again); a line cut short by a kill, a file
// that does not read and a peer count that is no number count nothing.
HitsByCampaign ReadHits(const std::string& dir);

int64_t TotalHits(const HitsByCampaign& hits);

// The file a peer campaign's imported hits live in: "sync.<name>". A
// store's own writers are named by UniqueSuffix(), which never starts so.
std::string PeerHitsFileName(absl::string_view peer);

// What a campaign may be called in a sync directory: 1 to 64 of
// [A-Za-z0-9_.-], not starting with '.'.
bool IsSyncName(absl::string_view name);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_TRIAGE_BUCKET_HITS_H_
