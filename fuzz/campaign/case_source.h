// Where a campaign's case number `index` comes from: generated from its own
// seed, or mutated from a corpus case. Both are pure functions of (campaign
// seed, index, parent case), so the supervisor can rebuild the case a
// crashed worker was running, and a finding's metadata can say how to
// rebuild it (`atomfuzz gen --seed=...`).
#ifndef ATOMFUZZ_FUZZ_CAMPAIGN_CASE_SOURCE_H_
#define ATOMFUZZ_FUZZ_CAMPAIGN_CASE_SOURCE_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "fuzz/campaign/campaign_corpus.h"
#include "fuzz/generate/policy.h"
#include "isa/case_file.h"

namespace atomfuzz::fuzz {

struct CaseOrigin {
  uint64_t index = 0;
  uint64_t seed = 0;   // CaseSeed(campaign seed, index)
  std::string parent;  // corpus name mutated from; "" = generated
  // Applied mutators, in order; none for a seed run as it is.
  std::vector<std::string> mutations;
  // As [metadata] pairs: seed, policy, parent, mutations.
  std::vector<std::pair<std::string, std::string>> Metadata(
      const std::string& policy) const;
};

// Case `index`: below corpus.seed_count(), that seed as it is; past them,
// generation or mutation (policy-free: the campaign's share) chosen, then
// built.
isa::Case NextCase(uint64_t campaign_seed, uint64_t index,
                   uint32_t mutate_per_mille, const CampaignCorpus& corpus,
                   const Policy& policy, CaseOrigin& origin);
// Rebuilds the case of `index` given its parent (nullptr: generated).
// Seeds run as they are are not built: RebuildCase knows them.
isa::Case BuildCase(uint64_t campaign_seed, uint64_t index,
                    const isa::Case* parent, const Policy& policy,
                    CaseOrigin& origin);

// The case NextCase gave `index`, from the name of its parent ("" when
// generated), as a supervisor rebuilds what a lost worker ran. `parent`
// must name a case of `corpus` (after a Reload) when not "".
isa::Case RebuildCase(uint64_t campaign_seed, uint64_t index,
                      const CampaignCorpus& corpus, const std::string& parent,
                      const Policy& policy, CaseOrigin& origin);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_CAMPAIGN_CASE_SOURCE_H_
