// Before any worker starts: checks the options, prepares the output
// directory, and decides the seed and where the case numbering starts (a
// resumed campaign continues its state file). Internal to the campaign.
#ifndef ATOMFUZZ_FUZZ_CAMPAIGN_CAMPAIGN_SETUP_H_
#define ATOMFUZZ_FUZZ_CAMPAIGN_CAMPAIGN_SETUP_H_

#include <string>

#include "absl/status/statusor.h"
#include "fuzz/campaign/campaign_options.h"
#include "fuzz/campaign/campaign_state.h"
#include "fuzz/campaign/campaign_worker.h"

namespace atomfuzz::fuzz {

// The campaign's hold on its --out: an flock on DIR/campaign.lock, held
// while this object (and any forked worker, which shares it) lives, so
// that a second campaign on the same directory is refused, not mixed in.
class DirectoryLock {
 public:
  static absl::StatusOr<DirectoryLock> Take(const std::string& dir);
  DirectoryLock() = default;
  DirectoryLock(DirectoryLock&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  DirectoryLock& operator=(DirectoryLock&& o) noexcept;
  ~DirectoryLock();

 private:
  int fd_ = -1;
};

struct PreparedCampaign {
  DirectoryLock lock;
  CampaignSetup setup;
  CampaignState state;  // what earlier sessions did (zeros for a new one)
  std::string state_path;
  std::string stats_path;
  // Where a resumed campaign read the kept features (corpus.epochs, or an
  // older campaign's features file), what it read there ("" if none),
  // and how many epochs are kept.
  std::string features_path;
  std::string seen_features;
  uint64_t finalized_epochs = 0;
  uint64_t epoch_cases = 0;  // the campaign's (corpus_epochs.h)
};

// Temp files of writes a kill interrupted (atomic_file.h names them
// "<file>.tmp.<suffix>") under `dir`: nobody will finish them. Only where
// this campaign alone writes (its --out under the lock, its name in a sync
// directory).
void RemoveLeftoverTempFiles(const std::string& dir);

absl::StatusOr<PreparedCampaign> PrepareCampaign(
    const CampaignOptions& options);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_CAMPAIGN_CAMPAIGN_SETUP_H_
