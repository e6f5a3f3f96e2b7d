#include "fuzz/campaign/campaign_stats.h"

#include <algorithm>
#include <array>
#include <bit>
#include <optional>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/strings/ascii.h"
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

// Cells of the coverage matrix (op x kind x address class).
constexpr int kCellCount =
    kAtomicOpCount * isa::kTargetKindCount * isa::kAddressClassCount;

// Scratch kept between calls, all zero at rest: zeroing a whole table per
// case would cost more than the counting (a trace holds tens of events).
// Each call clears what it touched.
struct WordSlot {
  uint64_t a = 0, b = 0;
  uint32_t count = 0;  // 0: empty
};
struct CoverageScratch {
  std::array<uint32_t, kCellCount> per_cell{};
  std::vector<WordSlot> table;  // a power of two in size
};

// Counts the in-bounds events of `trace` per word (g#: per word and
// group) in `table`, an open-addressing table at least twice the events in
// size: no sort. Into `slot_of`, per in-bounds event, the slot of its word,
// whose count is then how many in-bounds events alias it; the caller clears
// those slots when done (CountCoverage, after counting).
template <typename Out>
void CountWords(const std::vector<isa::AtomicEvent>& trace,
                std::vector<WordSlot>& table, Out& slot_of) {
  slot_of.resize(trace.size());
  size_t size = 64;
  while (size < 2 * trace.size()) size *= 2;
  if (table.size() < size) table.assign(size, WordSlot{});
  const size_t mask = size - 1;
  for (uint32_t i = 0; i < trace.size(); ++i) {
    const isa::AtomicEvent& e = trace[i];
    if (e.address != isa::AddressClass::kInBounds) continue;
    // (file, slot) and (word, group) packed in two integers.
    const uint32_t group =
        e.file == isa::RegFile::kTgsm
            ? e.group[0] | e.group[1] << 16 | e.group[2] << 24
            : 0;
    const uint64_t a = uint64_t{static_cast<uint32_t>(e.file)} << 32 | e.slot;
    const uint64_t b = uint64_t{e.word} << 32 | group;
    // SplitMix64's finalizer spreads neighbouring words over the table.
    uint64_t h = a * 0x9E3779B97F4A7C15ull ^ b;
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
    size_t at = (h ^ (h >> 31)) & mask;
    while (table[at].count != 0 && (table[at].a != a || table[at].b != b)) {
      at = (at + 1) & mask;
    }
    table[at].a = a;
    table[at].b = b;
    ++table[at].count;
    slot_of[i] = static_cast<uint32_t>(at);
  }
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
  if (outcome.status != isa::RunStatus::kOk || !outcome.has_trace ||
      outcome.trace.empty()) {
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
      declared.push_back(
          {i.operands[0].file, i.operands[0].index, static_cast<int>(*k)});
    }
  }
  // Runs of events on one memory are the rule: the last answer is kept.
  isa::RegFile last_file = isa::RegFile::kNull;
  uint32_t last_slot = 0;
  int last_kind = -1;
  auto kind_of = [&](const isa::AtomicEvent& e) {
    if (e.file == last_file && e.slot == last_slot) return last_kind;
    last_file = e.file;
    last_slot = e.slot;
    last_kind = -1;
    // From the back: a later declaration of a slot wins (isa::DeclaredKinds).
    for (auto d = declared.rbegin(); d != declared.rend(); ++d) {
      if (d->file == e.file && d->slot == e.slot) {
        last_kind = d->kind;
        break;
      }
    }
    return last_kind;
  };
  // Most traces hold tens of events: the scratch below lives on the stack.
  constexpr size_t kInlineEvents = 64;
  // Per in-bounds event, the slot counting the in-bounds events on its word
  // (g# words are per group, u# words shared by all).
  thread_local CoverageScratch scratch;
  absl::InlinedVector<uint32_t, kInlineEvents> slot_of;
  CountWords(outcome.trace, scratch.table, slot_of);
  // Events per cell of the matrix, so that the shared counters see one
  // atomic add per cell, not per event; and the features as a bit set,
  // read back in order (sorted and distinct, as the callers expect).
  std::array<uint32_t, kCellCount>& per_cell = scratch.per_cell;
  absl::InlinedVector<int, 16> cells;  // those with a count, as first seen
  std::array<uint64_t, (kFeatureCount + 63) / 64> seen{};
  const bool pixel = c.shader.pixel();
  thread_local std::vector<LaneState> states;
  if (pixel) EventLaneStates(c, outcome, states);
  for (uint32_t i = 0; i < outcome.trace.size(); ++i) {
    const isa::AtomicEvent& e = outcome.trace[i];
    if (e.instruction >= c.shader.instructions.size()) continue;
    const int op = static_cast<int>(c.shader.instructions[e.instruction].op) -
                   static_cast<int>(isa::Op::kAtomicAnd);
    if (op < 0 || op >= kAtomicOpCount) continue;
    const int k = kind_of(e);
    if (k < 0) continue;
    const int cls = static_cast<int>(e.address);
    const int cell =
        (op * isa::kTargetKindCount + k) * isa::kAddressClassCount + cls;
    if (per_cell[static_cast<size_t>(cell)]++ == 0) cells.push_back(cell);
    int alias = 0;
    if (e.address == isa::AddressClass::kInBounds) {
      alias = AliasBucket(scratch.table[slot_of[i]].count);
    }
    int f = cell * kAliasBuckets + alias;
    if (pixel) {
      f = kComputeFeatureCount + f * kLaneStateCount +
          static_cast<int>(states[i]);
    }
    seen[static_cast<size_t>(f) / 64] |= uint64_t{1} << (f % 64);
  }
  for (const int cell : cells) {
    const int cls = cell % isa::kAddressClassCount;
    const int k = cell / isa::kAddressClassCount % isa::kTargetKindCount;
    const int op = cell / isa::kAddressClassCount / isa::kTargetKindCount;
    counters.coverage[op][k][cls].fetch_add(per_cell[static_cast<size_t>(cell)],
                                            std::memory_order_relaxed);
    per_cell[static_cast<size_t>(cell)] = 0;
  }
  for (uint32_t i = 0; i < outcome.trace.size(); ++i) {
    if (outcome.trace[i].address == isa::AddressClass::kInBounds) {
      scratch.table[slot_of[i]] = WordSlot{};
    }
  }
  for (size_t w = 0; w < seen.size(); ++w) {
    for (uint64_t bits = seen[w]; bits != 0; bits &= bits - 1) {
      features.push_back(static_cast<int>(w * 64) + std::countr_zero(bits));
    }
  }
}

bool WriteSucceeded(SharedState& shared, std::FILE* log, absl::string_view what,
                    const absl::Status& s) {
  if (s.ok()) return true;
  if (shared.write_failed.exchange(1) == 0) {
    std::fprintf(log,
                 "atomfuzz: cannot write %s: %s; stopping the campaign (what "
                 "was written "
                 "is kept)\n",
                 std::string(what).c_str(), std::string(s.message()).c_str());
    std::fflush(log);
  }
  shared.stop.store(1);
  return false;
}

std::string SeenFeaturesText(const SharedState& shared) {
  std::string text;
  text.reserve((kFeatureCount + 3) / 4 + 1);
  for (int first = 0; first < kFeatureCount; first += 4) {
    int nibble = 0;
    for (int b = 0; b < 4 && first + b < kFeatureCount; ++b) {
      if (shared.seen[first + b].load(std::memory_order_relaxed) != 0)
        nibble |= 1 << b;
    }
    text.push_back("0123456789abcdef"[nibble]);
  }
  return text + "\n";
}

absl::Status LoadSeenFeatures(absl::string_view text, const std::string& path,
                              SharedState& shared) {
  text = absl::StripTrailingAsciiWhitespace(text);
  if (text.size() != (kFeatureCount + 3) / 4 &&
      text.size() != (kComputeFeatureCount + 3) / 4) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s:1: expected %d hex digits (the features of this build), found %d",
        path, (kFeatureCount + 3) / 4, text.size()));
  }
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    int nibble = 0;
    if (c >= '0' && c <= '9') {
      nibble = c - '0';
    } else if (c >= 'a' && c <= 'f') {
      nibble = c - 'a' + 10;
    } else {
      return absl::InvalidArgumentError(absl::StrFormat(
          "%s:1:%d: expected a hex digit, found '%c'", path, i + 1, c));
    }
    for (int b = 0; b < 4; ++b) {
      const size_t f = 4 * i + static_cast<size_t>(b);
      // An older build's last digit holds fewer features than four.
      if ((nibble >> b & 1) != 0 && f < kFeatureCount &&
          (text.size() != (kComputeFeatureCount + 3) / 4 ||
           f < kComputeFeatureCount))
        shared.seen[f].store(1, std::memory_order_relaxed);
    }
  }
  return absl::OkStatus();
}

std::string StatusLine(const CampaignTotals& t) {
  auto share = [&](uint64_t n) {
    return t.cases == 0 ? 0 : 100.0 * static_cast<double>(n) / t.cases;
  };
  // "workers lost": atomfuzz's own worker processes that died or hung; a
  // target's crash or hang in its child is a divergence (and a bucket).
  return absl::StrFormat(
             "#%d cases: %d (%s) div: %d buckets: %d unknown: %.2f%% "
             "rejected: %.1f%% workers lost: %d crashed %d hung corpus: %d "
             "elapsed: "
             "%.0fs",
             t.cases, t.cases, Rate(t.cases_per_second), t.divergences,
             t.buckets, share(t.unknown), share(t.rejected), t.crashes,
             t.timeouts, t.corpus, t.elapsed_seconds) +
         (t.errors > 0 ? absl::StrFormat(" errors: %d", t.errors) : "") +
         (t.reducing > 0 ? absl::StrFormat(" reducing: %d", t.reducing) : "");
}

std::string NewBucketLine(const BucketInfo& b) {
  const Signature& s = b.signature;
  std::string line = absl::StrFormat(
      "%s bucket %s (%s, %s, %s, %s)", b.known.empty() ? "NEW" : "KNOWN", b.id,
      s.divergence, s.opcode, s.resource, s.address);
  if (b.first_seen_elapsed >= 0)
    absl::StrAppendFormat(&line, " at %.0fs", b.first_seen_elapsed);
  if (!b.known.empty()) {
    // Which write-up, not the verdict: people have read that one.
    absl::StrAppend(&line, ": ", b.known);
    if (line.size() > 100) line = line.substr(0, 97) + "...";
    return line;
  }
  // The verdict's start, within 100 columns: the report has the rest.
  constexpr size_t kWidth = 100;
  if (!b.summary.empty() && line.size() + 6 < kWidth) {
    absl::StrAppend(&line, ": ", b.summary);
    if (line.size() > kWidth) line = line.substr(0, kWidth - 3) + "...";
  }
  return line;
}

std::string SyncedBucketLine(const BucketInfo& b, const std::string& peer) {
  const Signature& s = b.signature;
  std::string line =
      absl::StrFormat("SYNC bucket %s (%s, %s, %s, %s) from %s", b.id,
                      s.divergence, s.opcode, s.resource, s.address, peer);
  const std::string& what = b.known.empty() ? b.summary : b.known;
  if (!what.empty()) absl::StrAppend(&line, ": ", what);
  if (line.size() > 100) line = line.substr(0, 97) + "...";
  return line;
}

std::string RenderCoverage(const CoverageCounts& counts) {
  std::string out = absl::StrFormat("%-20s", "atomic");
  for (int k = 0; k < isa::kTargetKindCount; ++k) {
    absl::StrAppend(
        &out, absl::StrFormat(" %-10s", isa::TargetKindName(
                                            static_cast<isa::TargetKind>(k))));
  }
  absl::StrAppend(&out, "\n");
  for (int op = 0; op < kAtomicOpCount; ++op) {
    absl::StrAppend(&out,
                    absl::StrFormat("%-20s", isa::Info(AtomicOp(op)).mnemonic));
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
      "  \"errors\": %d,\n  \"corpus\": %d,\n  \"elapsed_seconds\": %.1f,\n"
      "  \"generalised\": %d,\n  \"generalise_runs\": %d,\n"
      "  \"generalise_seconds\": %.2f,\n"
      "  \"target\": \"%s\",\n  \"policy\": \"%s\",\n  \"seed\": %d,\n"
      "  \"jobs\": %d,\n  \"coverage\": {",
      t.cases, t.cases_per_second, t.divergences, t.buckets, t.unknown,
      t.crashes, t.timeouts, t.rejected, t.errors, t.corpus, t.elapsed_seconds,
      t.generalised, t.generalise_runs, t.generalise_seconds, target, policy,
      seed, jobs);
  bool first_op = true;
  for (int op = 0; op < kAtomicOpCount; ++op) {
    std::string kinds;
    for (int k = 0; k < isa::kTargetKindCount; ++k) {
      std::string classes;
      for (int cls = 0; cls < isa::kAddressClassCount; ++cls) {
        if (t.coverage[op][k][cls] == 0) continue;
        absl::StrAppend(
            &classes, classes.empty() ? "" : ", ", "\"",
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
                    isa::Info(AtomicOp(op)).mnemonic, "\": {", kinds,
                    "\n    }");
    first_op = false;
  }
  absl::StrAppend(&out, first_op ? "}\n}\n" : "\n  }\n}\n");
  return out;
}

}  // namespace atomfuzz::fuzz
