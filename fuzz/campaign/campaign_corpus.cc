#include "fuzz/campaign/campaign_corpus.h"

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "fuzz/atomic_file.h"
#include "fuzz/campaign/corpus_epochs.h"
#include "fuzz/triage/signature.h"
#include "isa/validator.h"

namespace atomfuzz::fuzz {

namespace fs = std::filesystem;

std::vector<std::string> CaseFilesIn(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.is_regular_file(ec) && entry.path().extension() == ".case") {
      files.push_back(entry.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

namespace {

absl::StatusOr<isa::Case> ReadCase(const std::string& path) {
  absl::StatusOr<std::string> text = ReadWholeFile(path);
  if (!text.ok()) return text.status();
  absl::StatusOr<isa::Case> c = isa::ParseCase(*text, path);
  if (!c.ok()) return c.status();
  if (absl::Status s = isa::Validate(*c); !s.ok()) return s;
  return c;
}

}  // namespace

absl::Status CampaignCorpus::AddSeeds(const std::vector<std::string>& paths) {
  for (const std::string& path : paths) {
    std::error_code ec;
    std::vector<std::string> files;
    if (fs::is_directory(path, ec)) {
      files = CaseFilesIn(path);
    } else {
      files.push_back(path);
    }
    for (const std::string& file : files) {
      absl::StatusOr<isa::Case> c = ReadCase(file);
      if (!c.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat("seed ", c.status().message()));
      }
      if (names_.insert(file).second) entries_.push_back({file, *std::move(c)});
    }
  }
  seeds_ = entries_.size();  // before any saved case: Reload appends
  return absl::OkStatus();
}

void CampaignCorpus::Reload(
    uint64_t below, absl::flat_hash_map<std::string, isa::Case>* known) {
  std::vector<std::pair<uint64_t, std::string>> fresh;
  for (const std::string& file : CaseFilesIn(dir_)) {
    const std::string name = fs::path(file).filename().string();
    uint64_t index = 0;
    if (names_.contains(name) || !IndexOfKeptName(name, index) ||
        index >= below) {
      continue;
    }
    fresh.emplace_back(index, file);
  }
  std::sort(fresh.begin(), fresh.end());
  for (const auto& [index, file] : fresh) {
    const std::string name = fs::path(file).filename().string();
    if (known != nullptr) {
      if (auto it = known->find(name); it != known->end()) {
        names_.insert(name);
        entries_.push_back({name, std::move(it->second)});
        known->erase(it);
        continue;
      }
    }
    // Files appear whole (rename), so one that does not read is not ours
    // to judge; skip it rather than stop the campaign.
    absl::StatusOr<isa::Case> c = ReadCase(file);
    if (!c.ok()) continue;
    names_.insert(name);
    entries_.push_back({name, *std::move(c)});
  }
}

absl::StatusOr<std::string> CampaignCorpus::Save(const isa::Case& c) {
  const std::string text = isa::PrintCase(c);
  const std::string name = absl::StrFormat("%016x.case", Fnv1a64(text));
  if (names_.insert(name).second) {
    entries_.push_back({name, c});
    if (absl::Status s =
            WriteFileAtomically(absl::StrCat(dir_, "/", name), text, false);
        !s.ok()) {
      return s;
    }
  }
  return name;
}

const isa::Case* CampaignCorpus::Find(const std::string& name) const {
  for (const Entry& e : entries_) {
    if (e.name == name) return &e.c;
  }
  return nullptr;
}

}  // namespace atomfuzz::fuzz
