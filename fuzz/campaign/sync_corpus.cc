#include "fuzz/campaign/sync_corpus.h"

#include <algorithm>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "fuzz/atomic_file.h"
#include "fuzz/confined_paths.h"
#include "fuzz/triage/bucket_hits.h"
#include "fuzz/triage/signature.h"
#include "isa/validator.h"

namespace atomfuzz::fuzz {
namespace {

constexpr char kRejected[] = "-";

bool ParseHash(absl::string_view hex, uint64_t& hash) {
  return hex.size() == 16 &&
         std::all_of(
             hex.begin(), hex.end(),
             [](char c) {
               return absl::ascii_isxdigit(static_cast<unsigned char>(c));
             }) &&
         absl::SimpleHexAtoi(hex, &hash);
}

std::string Hex(uint64_t hash) { return absl::StrFormat("%016x", hash); }

}  // namespace

bool HashOfCaseName(absl::string_view name, uint64_t& hash) {
  if (!absl::ConsumeSuffix(&name, ".case")) return false;
  const size_t dash = name.rfind('-');
  if (dash != absl::string_view::npos) name.remove_prefix(dash + 1);
  return ParseHash(name, hash);
}

PeerCorpora::PeerCorpora(std::string out, std::string sync_dir)
    : out_(std::move(out)), sync_dir_(std::move(sync_dir)) {
  LoadSeen();
}

void PeerCorpora::LoadSeen() {
  const std::string dir = out_ + "/sync/seen";
  for (const std::string& peer : RegularFilesIn(dir)) {
    if (!IsSyncName(peer)) continue;
    absl::StatusOr<std::string> text = ReadWholeFile(dir + "/" + peer);
    if (!text.ok()) continue;
    auto& names = seen_[peer];
    for (absl::string_view line :
         absl::StrSplit(*text, '\n', absl::SkipEmpty())) {
      std::pair<absl::string_view, absl::string_view> kv =
          absl::StrSplit(line, absl::MaxSplits(' ', 1));
      uint64_t hash = 0;
      if (ParseHash(kv.second, hash)) imported_.insert(hash);
      names[std::string(kv.first)] = std::string(kv.second);
    }
  }
}

void PeerCorpora::RefreshHeld() {
  for (const std::string& name : RegularFilesIn(out_ + "/corpus")) {
    uint64_t hash = 0;
    if (HashOfCaseName(name, hash)) held_.insert(hash);
  }
}

void PeerCorpora::Seen(const std::string& peer, const std::string& name,
                       uint64_t hash) {
  seen_[peer][name] = Hex(hash);
  imported_.insert(hash);
  dirty_.insert(peer);
}

std::vector<PeerCase> PeerCorpora::Fresh(const std::vector<std::string>& peers,
                                         size_t max_per_peer,
                                         SyncWarnings& warnings) {
  RefreshHeld();
  std::vector<PeerCase> fresh;
  for (const std::string& peer : peers) {
    const std::string dir = absl::StrCat(sync_dir_, "/", peer, "/corpus");
    auto& seen = seen_[peer];
    size_t taken = 0;
    for (const std::string& name : RegularFilesIn(dir, &warnings)) {
      if (taken == max_per_peer) break;
      if (seen.contains(name)) continue;
      const std::string path = absl::StrCat(dir, "/", name);
      // Checked once: files appear whole (rename), so a bad one stays bad.
      auto reject = [&](absl::string_view why) {
        warnings.Skip(path, why);
        seen[name] = kRejected;
        dirty_.insert(peer);
      };
      if (!absl::EndsWith(name, ".case")) {
        reject("expected a .case file");
        continue;
      }
      absl::StatusOr<std::string> text = ReadWholeFile(path, kMaxPeerCaseBytes);
      if (!text.ok()) {
        reject(text.status().message());
        continue;
      }
      const uint64_t hash = Fnv1a64(*text);
      if (held_.contains(hash)) {
        Seen(peer, name, hash);  // kept here already
        continue;
      }
      absl::StatusOr<isa::Case> c = isa::ParseCase(*text, path);
      if (c.ok()) {
        if (absl::Status s = isa::Validate(*c); !s.ok()) c = s;
      }
      if (!c.ok()) {
        reject(c.status().message());
        continue;
      }
      fresh.push_back({peer, name, *std::move(text), *std::move(c), hash});
      ++taken;
    }
  }
  return fresh;
}

absl::Status PeerCorpora::Save() {
  if (dirty_.empty()) return absl::OkStatus();
  const std::string dir = out_ + "/sync/seen";
  if (absl::Status s = MakeDirectories(dir); !s.ok()) return s;
  for (const std::string& peer : dirty_) {
    std::vector<std::string> lines;
    for (const auto& [name, hash] : seen_[peer])
      lines.push_back(absl::StrCat(name, " ", hash));
    std::sort(lines.begin(), lines.end());
    if (absl::Status s = WriteFileAtomically(
            absl::StrCat(dir, "/", peer),
            absl::StrCat(absl::StrJoin(lines, "\n"), "\n"), false);
        !s.ok())
      return s;
  }
  dirty_.clear();
  return absl::OkStatus();
}

absl::Status PublishCorpus(const std::string& out, const std::string& mine,
                           const absl::flat_hash_set<uint64_t>& imported,
                           absl::flat_hash_set<std::string>& published) {
  const std::string to = mine + "/corpus";
  if (published.empty()) {
    if (absl::Status s = MakeDirectories(to); !s.ok()) return s;
    for (std::string& name : RegularFilesIn(to)) published.insert(name);
  }
  for (const std::string& name : RegularFilesIn(out + "/corpus")) {
    uint64_t hash = 0;
    if (published.contains(name) || !HashOfCaseName(name, hash) ||
        imported.contains(hash)) {
      continue;
    }
    absl::StatusOr<std::string> text =
        ReadWholeFile(absl::StrCat(out, "/corpus/", name));
    if (!text.ok()) continue;
    if (absl::Status s =
            WriteFileAtomically(absl::StrCat(to, "/", name), *text, false);
        !s.ok())
      return s;
    published.insert(name);
  }
  return absl::OkStatus();
}

}  // namespace atomfuzz::fuzz
