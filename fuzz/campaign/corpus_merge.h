// atomfuzz merge, in the spirit of libFuzzer's -merge=1: of many cases (a
// campaign's corpus grown over sessions, several campaigns' corpora), keep
// the fewest, smallest first, that reach every feature any of them reaches
// on the target (the features a campaign keeps cases for,
// campaign_stats.h), saved into one corpus directory as a campaign saves
// its own.
#ifndef ATOMFUZZ_FUZZ_CAMPAIGN_CORPUS_MERGE_H_
#define ATOMFUZZ_FUZZ_CAMPAIGN_CORPUS_MERGE_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "targets/target.h"

namespace atomfuzz::fuzz {

struct MergeResult {
  size_t existing = 0;  // cases `out_dir` held already (all kept)
  size_t inputs = 0;    // cases read from the inputs
  size_t added = 0;     // of them, copied into `out_dir`
  size_t features = 0;  // features of everything kept
};

// The cases of `out_dir` are kept and counted first; then each input
// (files, or directories of .case files), smallest first (isa size order,
// then name), is added where it reaches a feature nothing kept reaches.
// InvalidArgument for an input that does not read as a valid case.
absl::StatusOr<MergeResult> MergeCorpus(const std::vector<std::string>& inputs,
                                        const std::string& out_dir,
                                        targets::Target& target);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_CAMPAIGN_CORPUS_MERGE_H_
