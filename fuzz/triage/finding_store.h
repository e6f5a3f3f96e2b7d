// Findings on disk, one directory per bucket, safe for several worker
// processes saving at once without locks, and for being killed at any time:
//
//   DIR/findings/<id>/bucket.txt     key = value: the signature, first sight
//   DIR/findings/<id>/original.case  the case as found, with provenance
//   DIR/findings/<id>/reduced.case   the smallest reproducer known, printed
//                                    as given (the report's lines match it)
//   DIR/findings/<id>/report.txt     the report for reduced.case
//   DIR/findings/<id>/hits/<writer>  this writer's hits, one line each:
//                                    "@<case index>" (a case counts once,
//                                    however often a resumed campaign runs
//                                    it again), or "+" without an index;
//   DIR/findings/<id>/hits/sync.<name>  the hits campaign <name> counted
//                                    itself, as a sync last imported them
//                                    (bucket_hits.h)
//   DIR/findings/.staging/           buckets being assembled
//   DIR/findings/.aliases/<id>       the key of the bucket where the reduced
//                                    case of signature <id> landed
//
// A new bucket is assembled in .staging and renamed into place whole, so the
// first process to rename owns it and nobody sees it half written; the loser
// only counts its hit (and offers its reproducer if smaller). Single files
// are replaced by temp file + rename (atomic_file.h). Each FindingStore
// object is one writer with its own hit files, so counts never race.
#ifndef ATOMFUZZ_FUZZ_TRIAGE_FINDING_STORE_H_
#define ATOMFUZZ_FUZZ_TRIAGE_FINDING_STORE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "fuzz/triage/bucket_hits.h"
#include "fuzz/triage/case_size.h"
#include "fuzz/triage/signature.h"
#include "isa/case_file.h"

namespace atomfuzz::fuzz {

struct NewFinding {
  Signature signature;
  // The campaign's number for the case (its hit counts once per index).
  std::optional<uint64_t> case_index;
  isa::Case original;                // as found; its metadata is kept
  std::optional<isa::Case> reduced;  // nullopt: the original is the smallest
  std::string report;                // RenderReport() of the reduced case
  std::string summary;               // Verdict::Summary(), or what died
  // Provenance written into original.case's [metadata] (replacing keys of
  // the same name): target, inject (if any), seed (if known), then `extra`.
  std::string target;
  std::string inject;
  std::optional<uint64_t> seed;
  std::vector<std::pair<std::string, std::string>> extra;
  int64_t found_at_unix = 0;  // seconds; 0 = now
  double elapsed_s = -1;      // seconds into the campaign; < 0 = unknown
  // The docs/findings.md section it is already written up as, or "".
  std::string known;
  // The essential signature in a sentence, and what finding it cost
  // (generalise.h); "" when the finding was not generalised.
  std::string trigger;
  std::string generalised;
};

// f.original with every [metadata] key original.case will carry (values
// known later left empty): the lines of its instructions are those of the
// saved file, so a verdict judged on it points into original.case (and
// into reduced.case when nothing was reduced: the two are the same then).
isa::Case OriginalAsSaved(const NewFinding& f);
// The same for f.reduced (which must be set): reduced.case carries the
// provenance too (target, injection, seed, executor, bucket), so that it
// replays on what found it.
isa::Case ReducedAsSaved(const NewFinding& f);

struct SaveResult {
  bool created = false;           // this call created the bucket
  bool replaced_reduced = false;  // an existing bucket got a smaller case
  std::string dir;                // DIR/findings/<id>
};

// One bucket as triage sees it.
struct BucketInfo {
  std::string id;
  Signature signature;
  std::string summary;
  int64_t hits = 0;        // summed over writers and campaigns
  HitsByCampaign hits_by;  // "" this store's own, else a peer's (sync)
  int64_t first_seen_unix = 0;
  double first_seen_elapsed = -1;
  std::string reduced_path;  // reduced.case, else original.case
  CaseSize reduced_size;
  // The docs/findings.md section it is already written up as (MarkKnown),
  // or "".
  std::string known;
  std::string trigger;      // as NewFinding's
  std::string generalised;  // as NewFinding's
};

// A bucket another campaign published (campaign_sync.h): its files as that
// campaign wrote them, checked by the caller, and the hits it counted itself.
struct PeerBucket {
  std::string id;         // the signature's, checked against bucket.txt's key
  std::string peer;       // that campaign's sync name (IsSyncName)
  int64_t hits = 0;       // its own hits: they replace the last import's
  std::string bucket;     // bucket.txt
  std::string original;   // original.case
  std::string reduced;    // reduced.case
  std::string report;     // report.txt
  CaseSize reduced_size;  // of `reduced`
};

struct AdoptResult {
  bool created = false;           // the bucket is new to this store
  bool replaced_reduced = false;  // the peer's reproducer is smaller
};

// Whether `name` is a bucket id: 16 lower-case hex digits.
bool IsBucketId(absl::string_view name);
// The bucket in `dir` (a store's findings/<id>, or a copy laid out the
// same way), read as FindingStore::ReadBucket reads its own.
absl::StatusOr<BucketInfo> ReadBucketDir(const std::string& dir,
                                         const std::string& id);

class FindingStore {
 public:
  // Creates DIR/findings if needed; an existing store is resumed: its
  // buckets are known (and new ones made by other processes are found on
  // disk when asked about).
  static absl::StatusOr<FindingStore> Open(const std::string& dir);
  // For readers (triage): creates nothing; NotFound without DIR/findings.
  // Saving through it works only if the staging directory exists.
  static absl::StatusOr<FindingStore> OpenReadOnly(const std::string& dir);

  const std::string& findings_dir() const { return findings_dir_; }

  // Whether the bucket exists (made by anyone, before or since Open).
  bool Contains(const Signature& s);
  // Saves a finding and counts one hit. If the bucket exists already, only
  // the hit is counted, and `f.reduced` (or the original) replaces
  // reduced.case and report.txt if it is smaller (CaseSize order).
  absl::StatusOr<SaveResult> Save(const NewFinding& f);
  // Counts one more hit of an existing bucket (NotFound if there is none).
  absl::Status RecordHit(const Signature& s,
                         std::optional<uint64_t> case_index = std::nullopt);

  // Brings a peer's bucket in: a new bucket is made whole from its files (as
  // Save makes one); an existing one takes its reduced.case and report.txt
  // if smaller. Either way hits/sync.<peer> is replaced by `b.hits`, so a
  // bucket two campaigns found stays one, and importing it again counts
  // nothing twice.
  absl::StatusOr<AdoptResult> Adopt(const PeerBucket& b);

  // A campaign signs a divergence as found, then its reduced case, which
  // names the bucket; the alias lets the next case signed as `found` count
  // in that bucket without being reduced again.
  absl::Status SaveAlias(const Signature& found, const Signature& bucket);
  // The bucket an alias of `found` names (made by anyone), or nullopt.
  // An alias whose bucket does not exist (yet, or ever: a kill between the
  // two writes) names nothing.
  std::optional<Signature> AliasOf(const Signature& found);

  // Ids of the buckets on disk now, sorted.
  std::vector<std::string> BucketIds() const;
  absl::StatusOr<BucketInfo> ReadBucket(const std::string& id) const;
  // Every bucket; a bucket that cannot be read is an error.
  absl::StatusOr<std::vector<BucketInfo>> ReadAll() const;

 private:
  explicit FindingStore(std::string findings_dir);
  std::string BucketDir(const std::string& id) const;
  bool ContainsId(const std::string& id);
  // Assembles a bucket from `files` (name, text) in .staging and renames it
  // into place; false if another process made it first.
  absl::StatusOr<bool> Install(
      const std::string& id,
      const std::vector<std::pair<std::string, std::string>>& files);
  // Replaces reduced.case and report.txt if `size` is smaller than the
  // bucket's (or its reduced.case does not read).
  absl::StatusOr<bool> ReplaceIfSmaller(const std::string& id,
                                        const CaseSize& size,
                                        const std::string& reduced,
                                        const std::string& report);
  // Appends one hit line to this writer's hits file of bucket `id`.
  absl::Status CountHit(const std::string& id,
                        std::optional<uint64_t> case_index);
  absl::StatusOr<bool> Claim(const NewFinding& f, const std::string& id);
  absl::StatusOr<bool> OfferSmaller(const NewFinding& f, const std::string& id);

  std::string findings_dir_;
  std::string writer_;  // names this object's hit files
  absl::flat_hash_set<std::string> known_;
  absl::flat_hash_map<std::string, int64_t> hits_;  // this writer's, per id
  absl::flat_hash_map<std::string, Signature> aliases_;  // found id -> bucket
};

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_TRIAGE_FINDING_STORE_H_
