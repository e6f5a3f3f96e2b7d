// Findings already written up in docs/findings.md, by bucket key
// (Signature::Key(), as bucket.txt's `key` line has it), so that a triage
// table marks them and people look at the new ones, as shader_runner's
// `todo` marks what is known to fail. Keys are as fine as the buckets: a
// new bug lands in a known bucket only where it would have shared that
// bucket anyway.
//
// The file (corpus/known-findings.txt): one entry a line,
//   KEY = WHAT
// WHAT naming the findings.md section ("#13 signed min/max on UINT storage
// dropped, wined3d GL"); blank lines and lines starting with '#' are
// comments.
#ifndef ATOMFUZZ_FUZZ_TRIAGE_KNOWN_FINDINGS_H_
#define ATOMFUZZ_FUZZ_TRIAGE_KNOWN_FINDINGS_H_

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "fuzz/triage/finding_store.h"

namespace atomfuzz::fuzz {

class KnownFindings {
 public:
  // InvalidArgument "FILE:LINE: expected 'KEY = WHAT', found ..." for a
  // line that is neither an entry nor a comment, or a key given twice.
  static absl::StatusOr<KnownFindings> Parse(absl::string_view text,
                                             const std::string& file);
  static absl::StatusOr<KnownFindings> Load(const std::string& path);

  // What the bucket with this key is, or nullptr.
  const std::string* Find(const std::string& key) const;
  size_t size() const { return by_key_.size(); }

 private:
  absl::flat_hash_map<std::string, std::string> by_key_;
};

// Sets the `known` of each bucket `known` lists (others keep what their
// bucket.txt said); returns how many are known.
size_t MarkKnown(const KnownFindings& known, std::vector<BucketInfo>& buckets);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_TRIAGE_KNOWN_FINDINGS_H_
