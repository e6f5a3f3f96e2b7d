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

struct PreparedCampaign {
  CampaignSetup setup;
  CampaignState state;  // what earlier sessions did (zeros for a new one)
  std::string state_path;
  std::string stats_path;
  std::string features_path;  // the features seen (SeenFeaturesText)
  std::string seen_features;  // what a resumed campaign read there, or ""
};

absl::StatusOr<PreparedCampaign> PrepareCampaign(
    const CampaignOptions& options);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_CAMPAIGN_CAMPAIGN_SETUP_H_
