#include "fuzz/triage/known_findings.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "fuzz/atomic_file.h"
#include "isa/diagnostics.h"

namespace atomfuzz::fuzz {

absl::StatusOr<KnownFindings> KnownFindings::Parse(absl::string_view text,
                                                   const std::string& file) {
  KnownFindings known;
  int number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++number;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || line.front() == '#') continue;
    const size_t eq = line.find(" = ");
    const absl::string_view key =
        eq == absl::string_view::npos
            ? absl::string_view()
            : absl::StripAsciiWhitespace(line.substr(0, eq));
    const absl::string_view what =
        eq == absl::string_view::npos
            ? absl::string_view()
            : absl::StripAsciiWhitespace(line.substr(eq + 3));
    // opcode|resource|address|divergence|target[|cause]
    const bool key_shaped = std::count(key.begin(), key.end(), '|') >= 4 &&
                            key.find(' ') == absl::string_view::npos;
    if (!key_shaped || what.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat(file, ":", number,
                       ": expected 'KEY = WHAT' (a bucket key "
                       "opcode|resource|address|divergence|target, then the "
                       "docs/findings.md section), found ",
                       isa::Quote(line)));
    }
    if (!known.by_key_.emplace(key, what).second) {
      return absl::InvalidArgumentError(
          absl::StrCat(file, ":", number, ": expected each key once, found ",
                       isa::Quote(key), " again"));
    }
  }
  return known;
}

absl::StatusOr<KnownFindings> KnownFindings::Load(const std::string& path) {
  absl::StatusOr<std::string> text = ReadWholeFile(path);
  if (!text.ok()) return text.status();
  return Parse(*text, path);
}

const std::string* KnownFindings::Find(const std::string& key) const {
  const auto it = by_key_.find(key);
  return it == by_key_.end() ? nullptr : &it->second;
}

size_t MarkKnown(const KnownFindings& known, std::vector<BucketInfo>& buckets) {
  size_t n = 0;
  for (BucketInfo& b : buckets) {
    // A campaign run with the list marked it already (bucket.txt).
    if (const std::string* what = known.Find(b.signature.Key()))
      b.known = *what;
    n += !b.known.empty();
  }
  return n;
}

}  // namespace atomfuzz::fuzz
