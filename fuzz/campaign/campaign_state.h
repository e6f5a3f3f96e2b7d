// What a campaign needs to continue after it was stopped or killed: the
// seed, what it fuzzes, where the case numbering stands and the counts so
// far. Saved as DIR/campaign.state (one "key value" per line, atomically
// replaced every few seconds); findings and corpus are files of their own,
// written when they appear, so a kill loses at most a few seconds of counts.
#ifndef ATOMFUZZ_FUZZ_CAMPAIGN_CAMPAIGN_STATE_H_
#define ATOMFUZZ_FUZZ_CAMPAIGN_CAMPAIGN_STATE_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace atomfuzz::fuzz {

struct CampaignState {
  uint64_t seed = 0;
  std::string target;
  std::string inject;
  std::string policy;
  uint64_t next_index = 0;  // the first case number a resumed run uses
  uint64_t cases = 0, divergences = 0, unknown = 0, crashes = 0;
  uint64_t timeouts = 0, rejected = 0;
  uint64_t errors = 0;  // the target or the judge failed, not the case
  double elapsed_seconds = 0;
};

std::string PrintCampaignState(const CampaignState& s);
// InvalidArgument "file:line: expected ..., found ..." on a malformed file.
absl::StatusOr<CampaignState> ParseCampaignState(absl::string_view text,
                                                 absl::string_view file);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_CAMPAIGN_CAMPAIGN_STATE_H_
