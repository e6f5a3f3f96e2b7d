#include "fuzz/campaign/case_source.h"

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "fuzz/generate/choices.h"
#include "fuzz/generate/generator.h"
#include "fuzz/mutate/mutator.h"

namespace atomfuzz::fuzz {
namespace {

// Separate streams for the choice of source and for building, so a case's
// content depends only on (seed, index, parent).
constexpr uint64_t kSourceStream = 0x736f75726365ull;  // "source"

// Seed `index` as it is.
isa::Case Seed(uint64_t campaign_seed, uint64_t index,
               const CampaignCorpus& corpus, CaseOrigin& origin) {
  origin.index = index;
  origin.seed = CaseSeed(campaign_seed, index);
  origin.parent = corpus.name(index);
  origin.mutations.clear();
  return corpus.at(index);
}

}  // namespace

std::vector<std::pair<std::string, std::string>> CaseOrigin::Metadata(
    const std::string& policy) const {
  std::vector<std::pair<std::string, std::string>> m = {
      {"seed", absl::StrFormat("0x%016x", seed)}, {"policy", policy}};
  if (!parent.empty()) {
    m.emplace_back("parent", parent);
    m.emplace_back("mutations", mutations.empty()
                                    ? std::string("none (the seed as it is)")
                                    : absl::StrJoin(mutations, " "));
  }
  return m;
}

isa::Case NextCase(uint64_t campaign_seed, uint64_t index,
                   uint32_t mutate_per_mille, const CampaignCorpus& corpus,
                   const Policy& policy, CaseOrigin& origin) {
  if (index < corpus.seed_count())
    return Seed(campaign_seed, index, corpus, origin);
  SeededChoices source(CaseSeed(campaign_seed ^ kSourceStream, index));
  if (corpus.size() > 0 && source.PerMille(mutate_per_mille)) {
    const size_t pick = source.Below(corpus.size());
    origin.parent = corpus.name(pick);
    return BuildCase(campaign_seed, index, &corpus.at(pick), policy, origin);
  }
  origin.parent.clear();
  return BuildCase(campaign_seed, index, nullptr, policy, origin);
}

isa::Case BuildCase(uint64_t campaign_seed, uint64_t index,
                    const isa::Case* parent, const Policy& policy,
                    CaseOrigin& origin) {
  origin.index = index;
  origin.seed = CaseSeed(campaign_seed, index);
  origin.mutations.clear();
  SeededChoices choices(origin.seed);
  if (parent == nullptr) return GenerateCase(choices, policy);
  return MutatedCase(*parent, choices, policy, origin.mutations);
}

isa::Case RebuildCase(uint64_t campaign_seed, uint64_t index,
                      const CampaignCorpus& corpus, const std::string& parent,
                      const Policy& policy, CaseOrigin& origin) {
  if (index < corpus.seed_count())
    return Seed(campaign_seed, index, corpus, origin);
  isa::Case c =
      BuildCase(campaign_seed, index,
                parent.empty() ? nullptr : corpus.Find(parent), policy, origin);
  origin.parent = parent;
  return c;
}

}  // namespace atomfuzz::fuzz
