// Corpus cases across the campaigns of a sync directory (campaign_sync.h),
// as AFL++ instances share their queues: each campaign publishes the cases
// it kept itself, and runs its peers' cases through its own admission (its
// target, its features: a case joins if it reaches one not reached yet).
//
//   DIR/<name>/corpus/<file>.case  a case OUT/corpus kept, under its name
//                                  there (index and content hash)
//   OUT/sync/seen/<peer>           "<file> <hash>" for each case of <peer>
//                                  already run, its text's Fnv1a64 ("-"
//                                  for one that failed a check); rewritten
//                                  whole, so a resumed campaign runs none
//                                  again
//
// Cases this campaign brought in are not published again: their hashes are
// in the seen files (and the peer has them).
#ifndef ATOMFUZZ_FUZZ_CAMPAIGN_SYNC_CORPUS_H_
#define ATOMFUZZ_FUZZ_CAMPAIGN_SYNC_CORPUS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "fuzz/campaign/sync_peers.h"
#include "isa/case_file.h"

namespace atomfuzz::fuzz {

// The content hash in a kept case's name ("<index>-<hash>.case", or
// "<hash>.case" as `merge` names them), or false.
bool HashOfCaseName(absl::string_view name, uint64_t& hash);

struct PeerCase {
  std::string peer;
  std::string name;  // its file name in DIR/<peer>/corpus
  std::string text;
  isa::Case c;  // parsed and valid
  uint64_t hash = 0;
};

class PeerCorpora {
 public:
  // Reads OUT/sync/seen/*.
  PeerCorpora(std::string out, std::string sync_dir);

  // Up to `max_per_peer` cases of each peer not run yet, in name order,
  // read and checked; those whose text OUT/corpus holds already are only
  // marked seen. A case that fails a check is warned about and seen.
  std::vector<PeerCase> Fresh(const std::vector<std::string>& peers,
                              size_t max_per_peer, SyncWarnings& warnings);
  // The case of `peer` named `name`, with the hash of its text, is done.
  void Seen(const std::string& peer, const std::string& name, uint64_t hash);
  // Rewrites the seen files of peers with cases seen since the last save.
  absl::Status Save();

  // Hashes of every peer case seen (those OUT/corpus holds too).
  const absl::flat_hash_set<uint64_t>& imported() const { return imported_; }
  // Marks a case kept in OUT/corpus (by anyone) as held.
  void Holds(uint64_t hash) { held_.insert(hash); }

 private:
  void LoadSeen();
  void RefreshHeld();

  std::string out_;
  std::string sync_dir_;
  // peer -> file name -> its line's hash ("-" when it failed a check)
  absl::flat_hash_map<std::string,
                      absl::flat_hash_map<std::string, std::string>>
      seen_;
  absl::flat_hash_set<std::string> dirty_;  // peers to save
  absl::flat_hash_set<uint64_t> imported_;
  absl::flat_hash_set<uint64_t> held_;  // hashes of OUT/corpus's cases
};

// Copies into DIR/<name>/corpus (`mine` + "/corpus") each case of
// OUT/corpus that is its own (its hash not in `imported`) and not
// published yet (`published`, names). Errors: a write into DIR failed.
absl::Status PublishCorpus(const std::string& out, const std::string& mine,
                           const absl::flat_hash_set<uint64_t>& imported,
                           absl::flat_hash_set<std::string>& published);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_CAMPAIGN_SYNC_CORPUS_H_
