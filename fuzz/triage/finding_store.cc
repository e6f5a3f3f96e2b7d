#include "fuzz/triage/finding_store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "fuzz/atomic_file.h"
#include "fuzz/confined_paths.h"

namespace atomfuzz::fuzz {
namespace {

// One line of a hits file (finding_store.h).
std::string HitLine(std::optional<uint64_t> case_index) {
  return case_index ? absl::StrCat("@", *case_index, "\n") : "+\n";
}

namespace fs = std::filesystem;

constexpr char kStaging[] = ".staging";
constexpr char kAliases[] = ".aliases";
constexpr char kBucketFile[] = "bucket.txt";

bool Exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

// Metadata values are one line (docs/case-format.md).
std::string OneLine(absl::string_view v) {
  return absl::StrReplaceAll(v, {{"\r", " "}, {"\n", " "}});
}

void SetMetadata(isa::Case& c, const std::string& key,
                 absl::string_view value) {
  for (auto& [k, v] : c.metadata) {
    if (k == key) {
      v = OneLine(value);
      return;
    }
  }
  c.metadata.emplace_back(key, OneLine(value));
}

void AddProvenance(isa::Case& c, const NewFinding& f, const std::string& id) {
  if (!f.target.empty()) SetMetadata(c, "target", f.target);
  if (!f.inject.empty()) SetMetadata(c, "inject", f.inject);
  if (f.seed) SetMetadata(c, "seed", absl::StrFormat("0x%x", *f.seed));
  for (const auto& [k, v] : f.extra) SetMetadata(c, k, v);
  SetMetadata(c, "bucket", id);
}

int64_t FoundAt(const NewFinding& f) {
  return f.found_at_unix != 0 ? f.found_at_unix
                              : absl::ToUnixSeconds(absl::Now());
}

std::string BucketText(const NewFinding& f, const std::string& id) {
  const Signature& s = f.signature;
  return absl::StrFormat(
             "id = %s\nkey = %s\nopcode = %s\nresource = %s\naddress = "
             "%s\ndivergence "
             "= %s\n"
             "target = %s\nfirst_seen = %d\nfirst_seen_elapsed = %.3f\nsummary "
             "= %s\n",
             id, s.Key(), s.opcode, s.resource, s.address, s.divergence,
             s.target, FoundAt(f), f.elapsed_s, OneLine(f.summary)) +
         (f.trigger.empty()
              ? ""
              : absl::StrCat("trigger = ", OneLine(f.trigger), "\n")) +
         (f.generalised.empty()
              ? ""
              : absl::StrCat("generalised = ", OneLine(f.generalised), "\n")) +
         (f.known.empty() ? ""
                          : absl::StrCat("known = ", OneLine(f.known), "\n"));
}

const isa::Case& Smallest(const NewFinding& f) {
  return f.reduced ? *f.reduced : f.original;
}

// The original with its provenance (the bucket id, summary and times as
// given, which only change values, never the lines).
isa::Case WithProvenance(const NewFinding& f, const std::string& id,
                         absl::string_view summary, int64_t found_at) {
  isa::Case c = f.original;
  AddProvenance(c, f, id);
  SetMetadata(c, "divergence", summary);
  SetMetadata(c, "found_at", absl::StrCat(found_at));
  if (f.elapsed_s >= 0)
    SetMetadata(c, "found_at_elapsed", absl::StrFormat("%.3f", f.elapsed_s));
  return c;
}

std::string OriginalText(const NewFinding& f, const std::string& id) {
  return isa::PrintCase(WithProvenance(f, id, f.summary, FoundAt(f)));
}

// Saved exactly as printed, so the line numbers in the report (rendered on
// ReducedAsSaved, whose metadata has the same keys) point into it.
std::string ReducedText(const NewFinding& f, const std::string& id) {
  if (!f.reduced) return OriginalText(f, id);
  isa::Case c = *f.reduced;
  AddProvenance(c, f, id);
  return isa::PrintCase(c);
}

absl::StatusOr<CaseSize> SizeOfFile(const std::string& path) {
  absl::StatusOr<std::string> text = ReadWholeFile(path);
  if (!text.ok()) return text.status();
  absl::StatusOr<isa::Case> c = isa::ParseCase(*text, path);
  if (!c.ok()) return c.status();
  return SizeOf(*c);
}

}  // namespace

bool IsBucketId(absl::string_view name) {
  return name.size() == 16 &&
         std::all_of(name.begin(), name.end(), [](char ch) {
           return absl::ascii_isdigit(ch) || (ch >= 'a' && ch <= 'f');
         });
}

isa::Case OriginalAsSaved(const NewFinding& f) {
  return WithProvenance(f, "", "", 0);
}

isa::Case ReducedAsSaved(const NewFinding& f) {
  isa::Case c = *f.reduced;
  AddProvenance(c, f, "");
  return c;
}

FindingStore::FindingStore(std::string findings_dir)
    : findings_dir_(std::move(findings_dir)), writer_(UniqueSuffix()) {}

absl::StatusOr<FindingStore> FindingStore::Open(const std::string& dir) {
  if (absl::Status s = MakeDirectories(dir); !s.ok()) return s;
  // Everything the store writes stays inside `dir`, whatever links appear
  // in it meanwhile.
  if (absl::Status s = ConfineFilesUnder(dir); !s.ok()) return s;
  FindingStore store(absl::StrCat(dir, "/findings"));
  if (absl::Status s = MakeDirectories(store.findings_dir_); !s.ok()) return s;
  for (const char* sub : {kStaging, kAliases}) {
    if (absl::Status s =
            MakeDirectories(absl::StrCat(store.findings_dir_, "/", sub));
        !s.ok()) {
      return s;
    }
  }
  for (std::string& id : store.BucketIds()) store.known_.insert(std::move(id));
  return store;
}

absl::StatusOr<FindingStore> FindingStore::OpenReadOnly(
    const std::string& dir) {
  if (absl::Status s = RefuseSymlinksUnder(dir); !s.ok()) return s;
  FindingStore store(absl::StrCat(dir, "/findings"));
  struct stat st;
  if (::stat(store.findings_dir_.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return absl::NotFoundError(absl::StrCat(dir, ": no findings directory (",
                                            store.findings_dir_, ")"));
  }
  if (absl::Status s = ConfineFilesUnder(dir); !s.ok()) return s;
  for (std::string& id : store.BucketIds()) store.known_.insert(std::move(id));
  return store;
}

std::string FindingStore::BucketDir(const std::string& id) const {
  return absl::StrCat(findings_dir_, "/", id);
}

bool FindingStore::Contains(const Signature& s) { return ContainsId(s.Id()); }

bool FindingStore::ContainsId(const std::string& id) {
  if (known_.contains(id)) return true;
  if (!Exists(absl::StrCat(BucketDir(id), "/", kBucketFile))) return false;
  known_.insert(id);  // another process made it
  return true;
}

std::vector<std::string> FindingStore::BucketIds() const {
  std::vector<std::string> ids;
  std::error_code ec;
  for (const fs::directory_entry& e :
       fs::directory_iterator(findings_dir_, ec)) {
    const std::string name = e.path().filename().string();
    if (IsBucketId(name) &&
        Exists(absl::StrCat(e.path().string(), "/", kBucketFile))) {
      ids.push_back(name);
    }
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

// Assembles the bucket in .staging, then renames the directory into place:
// rename(2) of a directory onto an existing non-empty one fails, so exactly
// one process wins, and the bucket appears with all its files.
absl::StatusOr<bool> FindingStore::Install(
    const std::string& id,
    const std::vector<std::pair<std::string, std::string>>& files) {
  const std::string staging =
      absl::StrCat(findings_dir_, "/", kStaging, "/", id, ".", UniqueSuffix());
  if (absl::Status s = MakeDirectories(staging); !s.ok()) return s;
  if (absl::Status s = MakeDirectories(absl::StrCat(staging, "/hits")); !s.ok())
    return s;
  absl::Status status;
  for (const auto& [name, text] : files) {
    status.Update(WriteFileAtomically(absl::StrCat(staging, "/", name), text));
  }
  bool won = false;
  if (status.ok()) {
    won = RenamePath(staging, BucketDir(id)) == 0;
    if (!won && errno != EEXIST && errno != ENOTEMPTY) {
      status = absl::InternalError(absl::StrCat(
          BucketDir(id), ": cannot create: ", std::strerror(errno)));
    }
  }
  if (!won) {
    std::error_code ec;
    fs::remove_all(staging, ec);
  }
  if (!status.ok()) return status;
  known_.insert(id);
  return won;
}

absl::StatusOr<bool> FindingStore::Claim(const NewFinding& f,
                                         const std::string& id) {
  absl::StatusOr<bool> won =
      Install(id, {
                      {"original.case", OriginalText(f, id)},
                      {"reduced.case", ReducedText(f, id)},
                      {"report.txt", f.report},
                      {absl::StrCat("hits/", writer_), HitLine(f.case_index)},
                      {kBucketFile, BucketText(f, id)},
                  });
  if (won.ok() && *won) hits_[id] = 1;
  return won;
}

absl::StatusOr<bool> FindingStore::ReplaceIfSmaller(const std::string& id,
                                                    const CaseSize& size,
                                                    const std::string& reduced,
                                                    const std::string& report) {
  const std::string path = absl::StrCat(BucketDir(id), "/reduced.case");
  absl::StatusOr<CaseSize> current = SizeOfFile(path);
  if (current.ok() && !(size < *current)) return false;
  // Each file is replaced whole; a report may briefly describe the
  // previous reproducer, never half of one.
  if (absl::Status s = WriteFileAtomically(path, reduced); !s.ok()) return s;
  if (absl::Status s = WriteFileAtomically(
          absl::StrCat(BucketDir(id), "/report.txt"), report);
      !s.ok()) {
    return s;
  }
  return true;
}

absl::StatusOr<bool> FindingStore::OfferSmaller(const NewFinding& f,
                                                const std::string& id) {
  return ReplaceIfSmaller(id, SizeOf(Smallest(f)), ReducedText(f, id),
                          f.report);
}

absl::Status FindingStore::CountHit(const std::string& id,
                                    std::optional<uint64_t> case_index) {
  ++hits_[id];
  // Appended, one short line in one write: a kill leaves at most a last
  // line without its newline, which readers ignore. Cheap to lose on power
  // failure and written often: no fsync.
  const std::string path = absl::StrCat(BucketDir(id), "/hits/", writer_);
  const int fd = OpenFile(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
  if (fd < 0) {
    return absl::InternalError(
        absl::StrCat(path, ": cannot write: ", std::strerror(errno)));
  }
  const std::string line = HitLine(case_index);
  const ssize_t n = ::write(fd, line.data(), line.size());
  const int saved = errno;
  ::close(fd);
  if (n != static_cast<ssize_t>(line.size())) {
    return absl::InternalError(absl::StrCat(
        path,
        ": cannot write: ", n < 0 ? std::strerror(saved) : "short write"));
  }
  return absl::OkStatus();
}

absl::StatusOr<SaveResult> FindingStore::Save(const NewFinding& f) {
  const std::string id = f.signature.Id();
  SaveResult result;
  result.dir = BucketDir(id);
  if (!Contains(f.signature)) {
    absl::StatusOr<bool> won = Claim(f, id);
    if (!won.ok()) return won.status();
    if (*won) {
      result.created = true;
      return result;
    }
  }
  absl::StatusOr<bool> replaced = OfferSmaller(f, id);
  if (!replaced.ok()) return replaced.status();
  result.replaced_reduced = *replaced;
  if (absl::Status s = CountHit(id, f.case_index); !s.ok()) return s;
  return result;
}

absl::Status FindingStore::RecordHit(const Signature& s,
                                     std::optional<uint64_t> case_index) {
  if (!Contains(s))
    return absl::NotFoundError(
        absl::StrCat("no bucket ", s.Id(), " ", s.Key()));
  return CountHit(s.Id(), case_index);
}

absl::Status FindingStore::SaveAlias(const Signature& found,
                                     const Signature& bucket) {
  aliases_[found.Id()] = bucket;
  return WriteFileAtomically(
      absl::StrCat(findings_dir_, "/", kAliases, "/", found.Id()),
      absl::StrCat(bucket.Key(), "\n"), /*sync=*/false);
}

std::optional<Signature> FindingStore::AliasOf(const Signature& found) {
  const std::string id = found.Id();
  std::optional<Signature> bucket;
  if (auto it = aliases_.find(id); it != aliases_.end()) {
    bucket = it->second;
  } else {
    // Another worker may have made it; one that does not read is ignored
    // (the case is then reduced again, which costs time, not findings).
    absl::StatusOr<std::string> text =
        ReadWholeFile(absl::StrCat(findings_dir_, "/", kAliases, "/", id));
    if (!text.ok()) return std::nullopt;
    absl::StatusOr<Signature> parsed =
        ParseSignatureKey(absl::StripAsciiWhitespace(*text));
    if (!parsed.ok()) return std::nullopt;
    bucket = *parsed;
    aliases_[id] = *bucket;
  }
  // The alias is written before its bucket: a campaign killed between the
  // two leaves an alias to nothing, which a resumed one must not count
  // hits in (it reduces and saves the finding again instead).
  if (!Contains(*bucket)) return std::nullopt;
  return bucket;
}

absl::StatusOr<BucketInfo> FindingStore::ReadBucket(
    const std::string& id) const {
  return ReadBucketDir(BucketDir(id), id);
}

absl::StatusOr<BucketInfo> ReadBucketDir(const std::string& dir,
                                         const std::string& id) {
  absl::StatusOr<std::string> text =
      ReadWholeFile(absl::StrCat(dir, "/", kBucketFile));
  if (!text.ok()) return text.status();
  BucketInfo b;
  b.id = id;
  for (absl::string_view line :
       absl::StrSplit(*text, '\n', absl::SkipEmpty())) {
    std::pair<absl::string_view, absl::string_view> kv =
        absl::StrSplit(line, absl::MaxSplits(" = ", 1));
    if (kv.first == "key") {
      absl::StatusOr<Signature> s = ParseSignatureKey(kv.second);
      if (!s.ok())
        return absl::InvalidArgumentError(
            absl::StrCat(dir, ": ", s.status().message()));
      b.signature = *s;
    } else if (kv.first == "first_seen") {
      (void)absl::SimpleAtoi(kv.second, &b.first_seen_unix);
    } else if (kv.first == "first_seen_elapsed") {
      (void)absl::SimpleAtod(kv.second, &b.first_seen_elapsed);
    } else if (kv.first == "summary") {
      b.summary = std::string(kv.second);
    } else if (kv.first == "known") {
      b.known = std::string(kv.second);
    } else if (kv.first == "trigger") {
      b.trigger = std::string(kv.second);
    } else if (kv.first == "generalised") {
      b.generalised = std::string(kv.second);
    }
  }
  b.hits_by = ReadHits(absl::StrCat(dir, "/hits"));
  b.hits = TotalHits(b.hits_by);
  b.reduced_path = absl::StrCat(dir, "/reduced.case");
  if (!Exists(b.reduced_path))
    b.reduced_path = absl::StrCat(dir, "/original.case");
  absl::StatusOr<CaseSize> size = SizeOfFile(b.reduced_path);
  if (!size.ok()) return size.status();
  b.reduced_size = *size;
  return b;
}

absl::StatusOr<std::vector<BucketInfo>> FindingStore::ReadAll() const {
  std::vector<BucketInfo> out;
  for (const std::string& id : BucketIds()) {
    absl::StatusOr<BucketInfo> b = ReadBucket(id);
    if (!b.ok()) return b.status();
    out.push_back(*std::move(b));
  }
  return out;
}

}  // namespace atomfuzz::fuzz
