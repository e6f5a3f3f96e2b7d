#include "fuzz/campaign/sync_identity.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <vector>

#include "absl/random/random.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "fuzz/atomic_file.h"
#include "fuzz/confined_paths.h"
#include "fuzz/triage/bucket_hits.h"
#include "fuzz/triage/signature.h"

namespace atomfuzz::fuzz {
namespace {

namespace fs = std::filesystem;

std::string IdentityPath(const std::string& out) {
  return out + "/sync/identity";
}

std::string Absolute(const std::string& path) {
  std::error_code ec;
  std::string p = fs::absolute(path, ec).lexically_normal().string();
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  return p;
}

std::string HostName() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) return "host";
  std::string name;
  for (const char* c = host; *c != '\0' && name.size() < 32; ++c) {
    if (absl::ascii_isalnum(static_cast<unsigned char>(*c)) || *c == '-' ||
        *c == '_' || (*c == '.' && !name.empty()))
      name += *c;
  }
  return name.empty() ? "host" : name;
}

absl::StatusOr<SyncIdentity> ParseIdentity(absl::string_view text,
                                           const std::string& path) {
  SyncIdentity id;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    std::pair<absl::string_view, absl::string_view> kv =
        absl::StrSplit(line, absl::MaxSplits(' ', 1));
    if (kv.first == "name") id.name = std::string(kv.second);
    if (kv.first == "id") id.id = std::string(kv.second);
    if (kv.first == "dir") id.dir = std::string(kv.second);
  }
  if (!IsSyncName(id.name) || id.id.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": expected 'name NAME' and 'id HEX' lines"));
  }
  return id;
}

// The id recorded in DIR/<name>/campaign, "" if the file has none.
std::string ClaimedBy(const std::string& path) {
  absl::StatusOr<std::string> text = ReadWholeFile(path, 4096);
  if (!text.ok()) return "";
  for (absl::string_view line : absl::StrSplit(*text, '\n')) {
    if (absl::ConsumePrefix(&line, "id ")) return std::string(line);
  }
  return "";
}

// Makes DIR/<name>/campaign name `id`, unless another campaign's id is
// there: written aside, then hard-linked into place, which fails if the
// file exists, so of two campaigns starting at once under one name only
// one gets it.
absl::Status Claim(const std::string& sync_dir, const SyncIdentity& id,
                   absl::string_view describe) {
  const std::string dir = absl::StrCat(sync_dir, "/", id.name);
  if (absl::Status s = MakeDirectories(dir); !s.ok()) return s;
  const std::string path = dir + "/campaign";
  if (ClaimedBy(path).empty()) {
    const std::string tmp = absl::StrCat(path, ".tmp.", UniqueSuffix());
    if (absl::Status s = WriteFileAtomically(
            tmp, absl::StrCat("id ", id.id, "\n", describe), false);
        !s.ok())
      return s;
    ParentDir at = OpenParentDir(path);
    const std::string tmp_name = fs::path(tmp).filename().string();
    if (at.fd < 0 ||
        (::linkat(at.fd, tmp_name.c_str(), at.fd, at.name.c_str(), 0) != 0 &&
         errno != EEXIST)) {
      const int saved = errno;
      RemoveFile(tmp);
      return absl::InternalError(
          absl::StrCat(path, ": cannot write: ", std::strerror(saved)));
    }
    RemoveFile(tmp);
  }
  const std::string owner = ClaimedBy(path);
  if (owner != id.id) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--sync: the name '", id.name, "' is another campaign's in ", sync_dir,
        " (", path, " names id ", owner.empty() ? "?" : owner, ", this one is ",
        id.id, "); give another --sync-name"));
  }
  return absl::OkStatus();
}

}  // namespace

std::string DefaultSyncName(const std::string& out) {
  return absl::StrFormat("%s-%016x", HostName(), Fnv1a64(Absolute(out)));
}

absl::StatusOr<SyncIdentity> LoadSyncIdentity(const std::string& out) {
  const std::string path = IdentityPath(out);
  absl::StatusOr<std::string> text = ReadWholeFile(path, 4096);
  if (!text.ok()) return text.status();
  return ParseIdentity(*text, path);
}

absl::StatusOr<SyncIdentity> SetUpSyncIdentity(const std::string& out,
                                               const std::string& sync_dir,
                                               const std::string& requested,
                                               absl::string_view describe) {
  if (!requested.empty() && !IsSyncName(requested)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--sync-name: expected 1 to 64 of A-Z a-z 0-9 _ . - (not starting "
        "with '.'), found '",
        requested, "'"));
  }
  SyncIdentity id;
  absl::StatusOr<SyncIdentity> recorded = LoadSyncIdentity(out);
  if (recorded.ok()) {
    id = *std::move(recorded);
    if (!requested.empty() && requested != id.name) {
      return absl::InvalidArgumentError(absl::StrCat(
          IdentityPath(out), ": the campaign syncs as '", id.name,
          "', found --sync-name=", requested,
          " (leave it out to resume: a new name would count its hits twice)"));
    }
  } else if (absl::IsNotFound(recorded.status())) {
    id.name = requested.empty() ? DefaultSyncName(out) : requested;
    absl::BitGen fresh;  // only tells campaigns apart; nothing replays it
    id.id = absl::StrFormat("%016x", absl::Uniform<uint64_t>(fresh));
  } else {
    return absl::InvalidArgumentError(recorded.status().message());
  }
  id.dir = Absolute(sync_dir);
  if (absl::Status s = MakeDirectories(out + "/sync"); !s.ok()) return s;
  if (absl::Status s = WriteFileAtomically(
          IdentityPath(out), absl::StrCat("name ", id.name, "\nid ", id.id,
                                          "\ndir ", id.dir, "\n"));
      !s.ok())
    return s;
  if (absl::Status s = Claim(sync_dir, id, describe); !s.ok()) {
    // A name never used stays free to choose again.
    if (!recorded.ok()) RemoveFile(IdentityPath(out));
    return s;
  }
  return id;
}

}  // namespace atomfuzz::fuzz
