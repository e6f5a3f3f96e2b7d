#include "fuzz/campaign/sync_findings.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <system_error>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "fuzz/atomic_file.h"
#include "fuzz/campaign/sync_identity.h"
#include "fuzz/confined_paths.h"
#include "fuzz/triage/bucket_hits.h"
#include "fuzz/triage/signature.h"
#include "fuzz/triage/triage.h"
#include "isa/case_file.h"

namespace atomfuzz::fuzz {
namespace {

namespace fs = std::filesystem;

constexpr size_t kMaxBucketTextBytes = size_t{64} << 10;

// Writes `text` at `path` unless this process wrote it there already, or
// the file holds it (a resumed campaign publishes nothing twice).
absl::Status Put(const std::string& path, absl::string_view text,
                 PublishedTexts& published) {
  const uint64_t hash = Fnv1a64(text);
  if (auto it = published.find(path);
      it != published.end() && it->second == hash)
    return absl::OkStatus();
  absl::StatusOr<std::string> there = ReadWholeFile(path, text.size() + 1);
  if (!there.ok() || *there != text) {
    if (absl::Status s = WriteFileAtomically(path, text, false); !s.ok())
      return s;
  }
  published[path] = hash;
  return absl::OkStatus();
}

// The signature of bucket.txt's one "key = " line, read as ReadBucketDir
// reads it: with two, the key checked might not be the key listed.
absl::StatusOr<Signature> KeyOf(absl::string_view text) {
  std::optional<absl::string_view> key;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    std::pair<absl::string_view, absl::string_view> kv =
        absl::StrSplit(line, absl::MaxSplits(" = ", 1));
    if (kv.first != "key") continue;
    if (key) return absl::InvalidArgumentError("expected one 'key = ' line");
    key = kv.second;
  }
  if (!key) return absl::InvalidArgumentError("expected a 'key = ' line");
  return ParseSignatureKey(*key);
}

int64_t PeerHits(const std::string& dir, const std::string& peer) {
  const HitsByCampaign hits = ReadHits(dir + "/hits");
  auto it = hits.find(peer);
  return it == hits.end() ? 0 : it->second;
}

PeerBucketStamp StampOf(const std::string& dir, int64_t hits) {
  struct stat st = {};
  if (::lstat((dir + "/reduced.case").c_str(), &st) != 0) return {hits, -1, 0};
  return {hits, static_cast<int64_t>(st.st_size),
          static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 +
              st.st_mtim.tv_nsec};
}

// The bucket directories a peer published, ids checked.
std::vector<std::string> PeerBucketIds(const std::string& findings,
                                       SyncWarnings& warnings) {
  std::vector<std::string> ids;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(findings, ec)) {
    const std::string name = e.path().filename().string();
    const fs::file_status st = e.symlink_status(ec);
    if (ec) continue;
    if (!fs::is_directory(st) || !IsBucketId(name)) {
      warnings.Skip(e.path().string(), "expected a bucket's directory");
      continue;
    }
    ids.push_back(name);
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

// `b` joins `merged`: a new id as it is, a known one with each campaign's
// hits once (the larger count is the later) and the smaller reproducer.
void Merge(BucketInfo b, std::vector<BucketInfo>& merged) {
  for (BucketInfo& m : merged) {
    if (m.id != b.id) continue;
    for (const auto& [campaign, n] : b.hits_by)
      m.hits_by[campaign] = std::max(m.hits_by[campaign], n);
    m.hits = TotalHits(m.hits_by);
    if (b.reduced_size < m.reduced_size) {
      m.reduced_path = b.reduced_path;
      m.reduced_size = b.reduced_size;
    }
    return;
  }
  merged.push_back(std::move(b));
}

}  // namespace

absl::Status PublishFindings(const FindingStore& store, const std::string& mine,
                             const std::string& name,
                             PublishedTexts& published) {
  for (const std::string& id : store.BucketIds()) {
    absl::StatusOr<BucketInfo> b = store.ReadBucket(id);
    if (!b.ok() || !b->hits_by.contains("")) continue;  // none of its own
    const std::string from = absl::StrCat(store.findings_dir(), "/", id);
    const std::string to = absl::StrCat(mine, "/findings/", id);
    if (absl::Status s = MakeDirectories(to + "/hits"); !s.ok()) return s;
    for (const char* file :
         {"original.case", "reduced.case", "report.txt", "bucket.txt"}) {
      absl::StatusOr<std::string> text =
          ReadWholeFile(absl::StrCat(from, "/", file));
      if (!text.ok()) continue;  // an older store without reduced.case
      if (absl::Status s = Put(absl::StrCat(to, "/", file), *text, published);
          !s.ok())
        return s;
    }
    // Last: with it, the bucket is whole for its readers.
    if (absl::Status s = Put(absl::StrCat(to, "/hits/", PeerHitsFileName(name)),
                             absl::StrCat(b->hits_by.at(""), "\n"), published);
        !s.ok())
      return s;
  }
  return absl::OkStatus();
}

absl::StatusOr<PeerBucket> ReadPeerBucket(const std::string& dir,
                                          const std::string& peer,
                                          const std::string& id) {
  PeerBucket b;
  b.id = id;
  b.peer = peer;
  b.hits = PeerHits(dir, peer);
  if (b.hits <= 0) {
    return absl::UnavailableError(
        absl::StrCat(dir, "/hits/", PeerHitsFileName(peer), ": not yet"));
  }
  auto bad = [&](absl::string_view file, absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat(dir, "/", file, ": ", why));
  };
  absl::StatusOr<std::string> text =
      ReadWholeFile(dir + "/bucket.txt", kMaxBucketTextBytes);
  if (!text.ok()) return text.status();
  absl::StatusOr<Signature> key = KeyOf(*text);
  if (!key.ok()) return bad("bucket.txt", key.status().message());
  if (key->Id() != id) {
    return bad("bucket.txt", absl::StrCat("its key signs to bucket ", key->Id(),
                                          ", not ", id));
  }
  b.bucket = *std::move(text);
  for (auto [file, into] : {std::pair{"reduced.case", &b.reduced},
                            std::pair{"original.case", &b.original}}) {
    absl::StatusOr<std::string> c =
        ReadWholeFile(absl::StrCat(dir, "/", file), kMaxPeerCaseBytes);
    if (!c.ok()) return c.status();
    absl::StatusOr<isa::Case> parsed = isa::ParseCase(*c, file);
    if (!parsed.ok()) return bad(file, parsed.status().message());
    if (into == &b.reduced) b.reduced_size = SizeOf(*parsed);
    *into = *std::move(c);
  }
  absl::StatusOr<std::string> report =
      ReadWholeFile(dir + "/report.txt", kMaxPeerTextBytes);
  if (report.ok()) b.report = *std::move(report);
  return b;
}

absl::StatusOr<std::vector<AdoptedBucket>> ImportFindings(
    FindingStore& store, const std::string& sync_dir,
    const std::vector<std::string>& peers, AdoptedStamps& stamps,
    SyncWarnings& warnings) {
  std::vector<AdoptedBucket> created;
  for (const std::string& peer : peers) {
    const std::string findings = absl::StrCat(sync_dir, "/", peer, "/findings");
    for (const std::string& id : PeerBucketIds(findings, warnings)) {
      const std::string dir = absl::StrCat(findings, "/", id);
      const PeerBucketStamp stamp = StampOf(dir, PeerHits(dir, peer));
      auto [it, fresh] = stamps.try_emplace({peer, id}, stamp);
      if (!fresh && it->second == stamp) continue;
      it->second = stamp;
      absl::StatusOr<PeerBucket> b = ReadPeerBucket(dir, peer, id);
      if (absl::IsUnavailable(b.status())) {
        stamps.erase(it);  // not whole yet: read it again next time
        continue;
      }
      if (!b.ok()) {
        warnings.Skip(dir, b.status().message());
        continue;
      }
      absl::StatusOr<AdoptResult> r = store.Adopt(*b);
      if (!r.ok()) return r.status();
      if (!r->created) continue;
      absl::StatusOr<BucketInfo> info = store.ReadBucket(id);
      if (info.ok()) created.push_back({peer, *std::move(info)});
    }
  }
  return created;
}

absl::StatusOr<std::vector<BucketInfo>> LoadSyncedTriage(const std::string& out,
                                                         std::FILE* log) {
  absl::StatusOr<std::vector<BucketInfo>> buckets = LoadTriage(out);
  if (!buckets.ok()) return buckets;
  absl::StatusOr<SyncIdentity> me = LoadSyncIdentity(out);
  if (!me.ok()) return buckets;  // it never synced
  for (BucketInfo& b : *buckets) {
    // Its own hits under its name, as its peers know them.
    if (auto it = b.hits_by.find(""); it != b.hits_by.end()) {
      b.hits_by[me->name] = std::max(b.hits_by[me->name], it->second);
      b.hits_by.erase(it);
    }
  }
  if (absl::Status s = ConfineFilesUnder(me->dir); !s.ok()) {
    std::fprintf(log,
                 "atomfuzz triage: %s: its sync directory: %s; listing "
                 "its own buckets\n",
                 out.c_str(), std::string(s.message()).c_str());
    return buckets;
  }
  SyncWarnings warnings(log);
  for (const std::string& peer : ListPeers(me->dir, me->name, warnings)) {
    const std::string findings = absl::StrCat(me->dir, "/", peer, "/findings");
    for (const std::string& id : PeerBucketIds(findings, warnings)) {
      const std::string dir = absl::StrCat(findings, "/", id);
      absl::StatusOr<PeerBucket> checked = ReadPeerBucket(dir, peer, id);
      if (absl::IsUnavailable(checked.status())) continue;
      absl::StatusOr<BucketInfo> b =
          checked.ok() ? ReadBucketDir(dir, id) : checked.status();
      if (!b.ok()) {
        warnings.Skip(dir, b.status().message());
        continue;
      }
      b->hits_by = {{peer, checked->hits}};  // its own, nobody else's
      b->hits = checked->hits;
      Merge(*std::move(b), *buckets);
    }
  }
  SortForTriage(*buckets);
  return buckets;
}

}  // namespace atomfuzz::fuzz
