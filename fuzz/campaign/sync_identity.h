// Who a campaign is in a sync directory (campaign_sync.h): its name, the
// folder DIR/<name>/ it publishes into, and a random id that tells it from
// another campaign that would take the same name. Recorded in
// OUT/sync/identity ("name N", "id HEX", "dir PATH" lines) the first time
// the campaign syncs, so that --resume publishes under the same name (a
// new name would make peers count its old hits twice, once under each).
#ifndef ATOMFUZZ_FUZZ_CAMPAIGN_SYNC_IDENTITY_H_
#define ATOMFUZZ_FUZZ_CAMPAIGN_SYNC_IDENTITY_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace atomfuzz::fuzz {

struct SyncIdentity {
  std::string name;  // IsSyncName
  std::string id;    // 16 hex digits, drawn once
  std::string dir;   // the sync directory it last synced through (absolute)
};

// The name a campaign takes when --sync-name is not given: the host's name
// (letters, digits, '-', '_' and '.' kept, at most 32) and a hash of the
// absolute --out path: "build1-3f2a9c01d4e5b6a7". Two campaigns on one
// host differ by their --out; one --out on two hosts by the host.
std::string DefaultSyncName(const std::string& out);

// OUT/sync/identity. NotFound for a campaign that never synced.
absl::StatusOr<SyncIdentity> LoadSyncIdentity(const std::string& out);

// The identity of the campaign in `out` syncing through `sync_dir`: the
// recorded one, or a new one named `requested` (or DefaultSyncName). Then
// DIR/<name>/campaign is claimed for it. InvalidArgument when `requested`
// is no sync name or differs from the recorded name, or when another
// campaign (another id) publishes under the name already.
absl::StatusOr<SyncIdentity> SetUpSyncIdentity(const std::string& out,
                                               const std::string& sync_dir,
                                               const std::string& requested,
                                               absl::string_view describe);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_CAMPAIGN_SYNC_IDENTITY_H_
