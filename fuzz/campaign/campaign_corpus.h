// The cases a campaign mutates: seeds given on the command line (read-only)
// and the cases it kept because they reached a new feature, saved under
// DIR/corpus by the epoch keeper (epoch_keeper.h) with names that start
// with their index. Workers load them epoch by epoch, so that every worker
// sees the same corpus at the same case index (corpus_epochs.h).
#ifndef ATOMFUZZ_FUZZ_CAMPAIGN_CAMPAIGN_CORPUS_H_
#define ATOMFUZZ_FUZZ_CAMPAIGN_CAMPAIGN_CORPUS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "isa/case_file.h"

namespace atomfuzz::fuzz {

// The .case files of a directory, sorted so that every worker sees them in
// the same order.
std::vector<std::string> CaseFilesIn(const std::string& dir);

class CampaignCorpus {
 public:
  explicit CampaignCorpus(std::string dir) : dir_(std::move(dir)) {}

  // Reads seed files and every .case of seed directories. Bad seeds are an
  // InvalidArgument naming the file and line (exit 2 at the CLI).
  absl::Status AddSeeds(const std::vector<std::string>& paths);
  // Adds the kept cases whose index is below `below` (all of them by
  // default) that are not loaded yet, in index order. A case's index only
  // grows with the epochs, so entries stay in index order.
  // `known`: cases this process offered, by the name they are kept under
  // (KeptCaseName); those are taken from it instead of read and parsed.
  void Reload(uint64_t below = UINT64_MAX,
              absl::flat_hash_map<std::string, isa::Case>* known = nullptr);
  // Saves a case under its content's hash, with no index (`atomfuzz
  // merge`): a campaign on this directory lets every case mutate it.
  // Returns its file name, or the error writing it.
  absl::StatusOr<std::string> Save(const isa::Case& c);

  size_t size() const { return entries_.size(); }
  // The seeds AddSeeds read: entries [0, seed_count()), in its order. A
  // campaign runs each once as it is before mutating anything (case index
  // i is seed i), so a seed that catches a bug by itself counts.
  size_t seed_count() const { return seeds_; }
  const isa::Case& at(size_t i) const { return entries_[i].c; }
  const std::string& name(size_t i) const { return entries_[i].name; }
  // The case saved or seeded under `name` (a path for seeds), or nullptr.
  const isa::Case* Find(const std::string& name) const;

 private:
  struct Entry {
    std::string name;
    isa::Case c;
  };
  std::string dir_;
  std::vector<Entry> entries_;
  size_t seeds_ = 0;
  absl::flat_hash_set<std::string> names_;
};

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_CAMPAIGN_CAMPAIGN_CORPUS_H_
