// atomfuzz fuzz --sync=DIR: campaigns that share, as AFL++'s -M/-S
// instances share a sync directory. Each campaign (its own --out, on any
// machine that mounts DIR, or another process) writes only under its own
// name and reads everyone else's:
//
//   DIR/<name>/campaign   "id HEX" and what it fuzzes (sync_identity.h)
//   DIR/<name>/corpus/    the cases it kept itself (sync_corpus.h)
//   DIR/<name>/findings/  its buckets and the hits it counted itself
//                         (sync_findings.h)
//
// At start and every --sync-every seconds the supervisor publishes what it
// has, then adopts its peers' buckets into its findings store (one bucket
// per key, each campaign's hits counted once, the smaller reproducer kept)
// and runs their new cases through its own corpus admission, in a child
// process. At the end it publishes, then adopts once more (no cases: the
// campaign is over).
//
// The guarantee: every write is a whole file (temp + rename) and every
// import replaces what it imported before, so a kill loses nothing and a
// resumed campaign imports nothing twice. A campaign's store holds every
// bucket its peers had published when it last imported; the last of a
// group to end holds them all. `atomfuzz triage OUT` reads the peers'
// publications too (LoadSyncedTriage), so once every campaign of DIR has
// ended, triage on any one of them lists the same buckets with the same
// hits, whichever ended first.
#ifndef ATOMFUZZ_FUZZ_CAMPAIGN_CAMPAIGN_SYNC_H_
#define ATOMFUZZ_FUZZ_CAMPAIGN_CAMPAIGN_SYNC_H_

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "fuzz/campaign/campaign_worker.h"
#include "fuzz/campaign/epoch_keeper.h"
#include "fuzz/campaign/sync_corpus.h"
#include "fuzz/campaign/sync_findings.h"
#include "fuzz/campaign/sync_identity.h"
#include "fuzz/campaign/sync_peers.h"
#include "fuzz/triage/finding_store.h"

namespace atomfuzz::fuzz {

class CampaignSync {
 public:
  // Takes the campaign's name in options.sync_dir (made if missing):
  // InvalidArgument for a bad or taken name, or a sync directory that
  // overlaps --out. Call with the campaign's lock held.
  static absl::StatusOr<std::unique_ptr<CampaignSync>> Open(
      const CampaignSetup& setup, std::FILE* log);

  const SyncIdentity& identity() const { return identity_; }

  // Publishes, then imports (cases too unless `final`). Returns the buckets
  // it made in `store`. Errors: a write into the campaign's own directory
  // failed (trouble with DIR or a peer is warned about on the log).
  absl::StatusOr<std::vector<AdoptedBucket>> Round(FindingStore& store,
                                                   SharedState& shared,
                                                   EpochKeeper& keeper,
                                                   bool final);

  // "sync: DIR as NAME, 2 peers: 14 of their cases run, 3 kept; 5
  // buckets adopted"
  std::string Summary() const;

 private:
  CampaignSync(const CampaignSetup& setup, SyncIdentity identity,
               std::FILE* log);
  std::string Mine() const { return identity_.dir + "/" + identity_.name; }
  void Publish(const FindingStore& store);
  absl::Status ImportCases(const std::vector<std::string>& peers,
                           SharedState& shared, EpochKeeper& keeper);

  const CampaignSetup& setup_;
  SyncIdentity identity_;
  std::FILE* log_;
  SyncWarnings warnings_;
  PeerCorpora corpora_;
  PublishedTexts published_texts_;
  absl::flat_hash_set<std::string> published_cases_;
  AdoptedStamps stamps_;
  size_t peers_ = 0;
  uint64_t cases_run_ = 0, cases_kept_ = 0, buckets_adopted_ = 0;
};

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_CAMPAIGN_CAMPAIGN_SYNC_H_
