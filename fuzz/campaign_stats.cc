#include "fuzz/campaign_stats.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "isa/opcode_table.h"

namespace atomfuzz::fuzz {
namespace {

constexpr char kClassLetters[isa::kAddressClassCount + 1] = "ISPTU";

int AliasBucket(size_t n) {
  if (n <= 1) return 0;
  if (n == 2) return 1;
  if (n <= 4) return 2;
  if (n <= 8) return 3;
  return 4;
}

isa::Op AtomicOp(int index) {
  return static_cast<isa::Op>(static_cast<int>(isa::Op::kAtomicAnd) + index);
}

std::string Rate(double per_second) {
  if (per_second >= 1e6) return absl::StrFormat("%.1fM/s", per_second / 1e6);
  if (per_second >= 1e3) return absl::StrFormat("%.1fk/s", per_second / 1e3);
  return absl::StrFormat("%.0f/s", per_second);
}

}  // namespace

void CountCoverage(const isa::Case& c, const isa::Outcome& outcome,
                   WorkerCounters& counters, std::vector<int>& features) {
  features.clear();
  if (outcome.status != isa::RunStatus::kOk || !outcome.has_trace || outcome.trace.empty()) {
    return;
  }
  // A case declares few memories: a short list beats a map per event.
  struct Declared {
    isa::RegFile file;
    uint32_t slot;
    int kind;
  };
  absl::InlinedVector<Declared, 8> declared;
  for (const isa::Instruction& i : c.shader.instructions) {
    if (std::optional<isa::TargetKind> k = isa::DeclaredKind(i)) {
      declared.push_back({i.operands[0].file, i.operands[0].index, static_cast<int>(*k)});
    }
  }
  auto kind_of = [&](const isa::AtomicEvent& e) {
    // From the back: a later declaration of a slot wins (isa::DeclaredKinds).
    for (auto d = declared.rbegin(); d != declared.rend(); ++d) {
      if (d->file == e.file && d->slot == e.slot) return d->kind;
    }
    return -1;
  };
  // Most traces hold tens of events: the scratch below lives on the stack.
  constexpr size_t kInlineEvents = 64;
  // Words touched by in-bounds atomics, to tell how many alias each other.
  // g# words are per group; u# words are shared by all.
  // (file, slot) and (word, group) packed in two integers: sorted as the
  // tuple of the four, and compared far faster.
  using WordKey = std::pair<uint64_t, uint64_t>;
  auto key_of = [](const isa::AtomicEvent& e) {
    const uint32_t group = e.file == isa::RegFile::kTgsm
                               ? e.group[0] | e.group[1] << 16 | e.group[2] << 24
                               : 0;
    return WordKey{uint64_t{static_cast<uint32_t>(e.file)} << 32 | e.slot,
                   uint64_t{e.word} << 32 | group};
  };
  // In-bounds events sorted by word: each run is one word's atomics, and
  // its length is how many alias it (one sort, no search per event).
  absl::InlinedVector<std::pair<WordKey, uint32_t>, kInlineEvents> words;  // key, event index
  words.reserve(outcome.trace.size());
  for (uint32_t i = 0; i < outcome.trace.size(); ++i) {
    const isa::AtomicEvent& e = outcome.trace[i];
    if (e.address == isa::AddressClass::kInBounds) words.emplace_back(key_of(e), i);
  }
  std::sort(words.begin(), words.end());
  absl::InlinedVector<uint32_t, kInlineEvents> aliases(outcome.trace.size(), 0);
  for (size_t i = 0; i < words.size();) {
    size_t j = i;
    while (j < words.size() && words[j].first == words[i].first) ++j;
    for (size_t k = i; k < j; ++k) aliases[words[k].second] = static_cast<uint32_t>(j - i);
    i = j;
  }
  // Cells of the matrix, one entry per event; counted per distinct cell so
  // that the shared counters see one atomic add per cell, not per event.
  absl::InlinedVector<int, kInlineEvents> cells;
  cells.reserve(outcome.trace.size());
  for (uint32_t i = 0; i < outcome.trace.size(); ++i) {
    const isa::AtomicEvent& e = outcome.trace[i];
    if (e.instruction >= c.shader.instructions.size()) continue;
    const int op = static_cast<int>(c.shader.instructions[e.instruction].op) -
                   static_cast<int>(isa::Op::kAtomicAnd);
    if (op < 0 || op >= kAtomicOpCount) continue;
    const int k = kind_of(e);
    if (k < 0) continue;
    const int cls = static_cast<int>(e.address);
    const int cell = (op * isa::kTargetKindCount + k) * isa::kAddressClassCount + cls;
    cells.push_back(cell);
    int alias = 0;
    if (e.address == isa::AddressClass::kInBounds) alias = AliasBucket(aliases[i]);
    features.push_back(cell * kAliasBuckets + alias);
  }
  std::sort(cells.begin(), cells.end());
  for (size_t i = 0; i < cells.size();) {
    size_t j = i;
    while (j < cells.size() && cells[j] == cells[i]) ++j;
    const int cell = cells[i];
    const int cls = cell % isa::kAddressClassCount;
    const int k = cell / isa::kAddressClassCount % isa::kTargetKindCount;
    const int op = cell / isa::kAddressClassCount / isa::kTargetKindCount;
    counters.coverage[op][k][cls].fetch_add(j - i, std::memory_order_relaxed);
    i = j;
  }
  std::sort(features.begin(), features.end());
  features.erase(std::unique(features.begin(), features.end()), features.end());
}

std::string StatusLine(const CampaignTotals& t) {
  const double unknown =
      t.cases == 0 ? 0 : 100.0 * static_cast<double>(t.unknown) / t.cases;
  return absl::StrFormat(
      "#%d cases: %d (%s) div: %d buckets: %d unknown: %.2f%% crashes: %d "
      "timeouts: %d corpus: %d elapsed: %.0fs",
      t.cases, t.cases, Rate(t.cases_per_second), t.divergences, t.buckets,
      unknown, t.crashes, t.timeouts, t.corpus, t.elapsed_seconds);
}

std::string RenderCoverage(const CoverageCounts& counts) {
  std::string out = absl::StrFormat("%-20s", "atomic");
  for (int k = 0; k < isa::kTargetKindCount; ++k) {
    absl::StrAppend(&out, absl::StrFormat(
        " %-10s", isa::TargetKindName(static_cast<isa::TargetKind>(k))));
  }
  absl::StrAppend(&out, "\n");
  for (int op = 0; op < kAtomicOpCount; ++op) {
    absl::StrAppend(&out, absl::StrFormat("%-20s", isa::Info(AtomicOp(op)).mnemonic));
    for (int k = 0; k < isa::kTargetKindCount; ++k) {
      std::string cell;
      if (!isa::IsLegal(AtomicOp(op), static_cast<isa::TargetKind>(k))) {
        cell = "-";
      } else {
        for (int cls = 0; cls < isa::kAddressClassCount; ++cls) {
          if (counts[op][k][cls] != 0) cell += kClassLetters[cls];
        }
        if (cell.empty()) cell = ".";
      }
      absl::StrAppend(&out, absl::StrFormat(" %-10s", cell));
    }
    absl::StrAppend(&out, "\n");
  }
  absl::StrAppend(&out,
                  "address classes: I in bounds, S skipped (out of bounds), "
                  "P u# poison, T g# poison, U undefined address\n");
  return out;
}

std::string StatsJson(const CampaignTotals& t, const std::string& target,
                      const std::string& policy, uint64_t seed, int jobs) {
  std::string out = absl::StrFormat(
      "{\n  \"cases\": %d,\n  \"cases_per_second\": %.1f,\n"
      "  \"divergences\": %d,\n  \"buckets\": %d,\n  \"unknown\": %d,\n"
      "  \"crashes\": %d,\n  \"timeouts\": %d,\n  \"rejected\": %d,\n"
      "  \"corpus\": %d,\n  \"elapsed_seconds\": %.1f,\n"
      "  \"target\": \"%s\",\n  \"policy\": \"%s\",\n  \"seed\": %d,\n"
      "  \"jobs\": %d,\n  \"coverage\": {",
      t.cases, t.cases_per_second, t.divergences, t.buckets, t.unknown, t.crashes,
      t.timeouts, t.rejected, t.corpus, t.elapsed_seconds, target, policy, seed, jobs);
  bool first_op = true;
  for (int op = 0; op < kAtomicOpCount; ++op) {
    std::string kinds;
    for (int k = 0; k < isa::kTargetKindCount; ++k) {
      std::string classes;
      for (int cls = 0; cls < isa::kAddressClassCount; ++cls) {
        if (t.coverage[op][k][cls] == 0) continue;
        absl::StrAppend(&classes, classes.empty() ? "" : ", ", "\"",
                        isa::AddressClassName(static_cast<isa::AddressClass>(cls)),
                        "\": ", t.coverage[op][k][cls]);
      }
      if (classes.empty()) continue;
      absl::StrAppend(&kinds, kinds.empty() ? "" : ",", "\n      \"",
                      isa::TargetKindName(static_cast<isa::TargetKind>(k)),
                      "\": {", classes, "}");
    }
    if (kinds.empty()) continue;
    absl::StrAppend(&out, first_op ? "" : ",", "\n    \"",
                    isa::Info(AtomicOp(op)).mnemonic, "\": {", kinds, "\n    }");
    first_op = false;
  }
  absl::StrAppend(&out, first_op ? "}\n}\n" : "\n  }\n}\n");
  return out;
}

}  // namespace atomfuzz::fuzz
