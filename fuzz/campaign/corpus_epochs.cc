#include "fuzz/campaign/corpus_epochs.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

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
#include "fuzz/triage/signature.h"
#include "isa/diagnostics.h"

namespace atomfuzz::fuzz {
namespace {

namespace fs = std::filesystem;

constexpr int kIndexDigits = 12;
constexpr absl::string_view kCandidateExtension = ".candidate";

std::string PendingName(uint64_t index) {
  return absl::StrFormat("%0*d%s", kIndexDigits, index, kCandidateExtension);
}

bool AllDigits(absl::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return absl::ascii_isdigit(static_cast<unsigned char>(c));
  });
}

bool AllHex(absl::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return absl::ascii_isxdigit(static_cast<unsigned char>(c));
  });
}

// The index of a pending file's name, or false.
bool IndexOfPendingName(absl::string_view name, uint64_t& index) {
  if (!absl::ConsumeSuffix(&name, kCandidateExtension)) return false;
  return AllDigits(name) && absl::SimpleAtoi(name, &index);
}

// Pending files whose index `keep` accepts, sorted by index.
std::vector<std::pair<uint64_t, std::string>> PendingFiles(
    const std::string& dir, auto keep) {
  std::vector<std::pair<uint64_t, std::string>> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    uint64_t index = 0;
    if (!entry.is_regular_file(ec) ||
        !IndexOfPendingName(entry.path().filename().string(), index) ||
        !keep(index)) {
      continue;
    }
    files.emplace_back(index, entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

uint64_t EpochCasesFor(absl::string_view target) {
  return target == "fast" || target == "oracle" ? kEpochCases
                                                : kSlowTargetEpochCases;
}

std::string KeptCaseName(uint64_t index, absl::string_view text) {
  return absl::StrFormat("%0*d-%016x.case", kIndexDigits, index, Fnv1a64(text));
}

bool IndexOfKeptName(absl::string_view name, uint64_t& index) {
  if (!absl::ConsumeSuffix(&name, ".case")) return false;
  std::vector<absl::string_view> parts = absl::StrSplit(name, '-');
  if (parts.size() == 2 && AllDigits(parts[0]) && AllHex(parts[1])) {
    return absl::SimpleAtoi(parts[0], &index);
  }
  // Campaigns before epochs named kept cases by their hash alone.
  index = 0;
  return true;
}

absl::Status WritePendingCandidate(const std::string& pending_dir,
                                   const CorpusCandidate& c) {
  const std::string text =
      absl::StrCat("features ", absl::StrJoin(c.features, " "), "\n", c.text);
  return WriteFileAtomically(
      absl::StrCat(pending_dir, "/", PendingName(c.index)), text, false);
}

std::vector<CorpusCandidate> ReadPendingCandidates(
    const std::string& pending_dir, const Epochs& epochs, uint64_t epoch) {
  std::vector<CorpusCandidate> out;
  for (const auto& [index, path] : PendingFiles(
           pending_dir, [&](uint64_t i) { return epochs.Of(i) == epoch; })) {
    absl::StatusOr<std::string> text = ReadWholeFile(path);
    if (!text.ok()) continue;
    const size_t newline = text->find('\n');
    if (newline == std::string::npos) continue;
    absl::string_view head(text->data(), newline);
    if (!absl::ConsumePrefix(&head, "features ")) continue;
    CorpusCandidate c;
    c.index = index;
    bool ok = true;
    for (absl::string_view f : absl::StrSplit(head, ' ', absl::SkipEmpty())) {
      int value = 0;
      if (!absl::SimpleAtoi(f, &value) || value < 0) ok = false;
      c.features.push_back(value);
    }
    if (!ok) continue;
    c.text = text->substr(newline + 1);
    out.push_back(std::move(c));
  }
  return out;
}

void RemovePendingEpoch(const std::string& pending_dir, const Epochs& epochs,
                        uint64_t epoch) {
  for (const auto& [index, path] : PendingFiles(
           pending_dir, [&](uint64_t i) { return epochs.Of(i) == epoch; })) {
    RemoveFile(path);
  }
}

void RemovePendingFrom(const std::string& pending_dir, uint64_t first) {
  for (const auto& [index, path] :
       PendingFiles(pending_dir, [first](uint64_t i) { return i >= first; })) {
    RemoveFile(path);
  }
}

std::string EpochRecordPath(const std::string& dir) {
  return dir + "/corpus.epochs";
}

std::string PrintEpochRecord(const EpochRecord& r) {
  return absl::StrFormat("epoch_cases %d\nfinalized %d\nfeatures %s\n",
                         r.epoch_cases, r.finalized, r.features_hex);
}

absl::StatusOr<EpochRecord> ParseEpochRecord(absl::string_view text,
                                             absl::string_view file) {
  EpochRecord r;
  bool has_size = false, has_finalized = false, has_features = false;
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty()) continue;
    auto bad = [&](absl::string_view expected) {
      return absl::InvalidArgumentError(
          absl::StrCat(file, ":", line_number, ": expected ", expected,
                       ", found ", isa::Quote(line)));
    };
    std::vector<absl::string_view> kv =
        absl::StrSplit(line, absl::MaxSplits(' ', 1));
    if (kv.size() != 2) return bad("'key value'");
    if (kv[0] == "epoch_cases") {
      if (!absl::SimpleAtoi(kv[1], &r.epoch_cases) || r.epoch_cases == 0 ||
          r.epoch_cases > (uint64_t{1} << 16)) {
        return bad("epoch_cases 1..65536");
      }
      has_size = true;
    } else if (kv[0] == "finalized") {
      if (!absl::SimpleAtoi(kv[1], &r.finalized)) return bad("a number");
      has_finalized = true;
    } else if (kv[0] == "features") {
      r.features_hex = std::string(kv[1]);
      has_features = true;
    } else {
      return bad("one of epoch_cases, finalized, features");
    }
  }
  if (!has_size || !has_finalized || !has_features) {
    return absl::InvalidArgumentError(absl::StrCat(
        file, ":", line_number,
        ": expected the lines epoch_cases, finalized and features"));
  }
  return r;
}

}  // namespace atomfuzz::fuzz
