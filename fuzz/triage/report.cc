#include "fuzz/triage/report.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "fuzz/runner.h"
#include "fuzz/triage/case_size.h"
#include "fuzz/triage/generalise.h"
#include "isa/outcome_format.h"
#include "isa/printer.h"

namespace atomfuzz::fuzz {
namespace {

constexpr size_t kMaxRows = 32;  // a report is read, not scrolled
constexpr char kUndefined[] = "????????";

std::string Hex(uint32_t v) { return absl::StrFormat("0x%08x", v); }

struct Row {
  std::string location, allowed, gave;
};

std::string Table(const std::vector<Row>& rows,
                  absl::string_view first_column) {
  size_t w0 = first_column.size(), w1 = 13;
  for (const Row& r : rows) {
    w0 = std::max(w0, r.location.size());
    w1 = std::max(w1, r.allowed.size());
  }
  std::string out = absl::StrFormat("  %-*s | %-*s | %s\n", w0, first_column,
                                    w1, "oracle allows", "target gave");
  absl::StrAppend(&out, "  ", std::string(w0, '-'), "-+-", std::string(w1, '-'),
                  "-+-", std::string(11, '-'), "\n");
  for (size_t i = 0; i < rows.size() && i < kMaxRows; ++i) {
    absl::StrAppendFormat(&out, "  %-*s | %-*s | %s\n", w0, rows[i].location,
                          w1, rows[i].allowed, rows[i].gave);
  }
  if (rows.size() > kMaxRows)
    absl::StrAppend(&out, "  ... ", rows.size() - kMaxRows, " more\n");
  return out;
}

void Header(std::string& out, const isa::Case& c, const Signature& s,
            absl::string_view verdict, const std::string& trigger = "") {
  absl::StrAppend(&out, "atomfuzz finding ", s.Id(), "\n\n");
  absl::StrAppend(&out, "verdict:  ", verdict, "\n");
  absl::StrAppend(&out, "bucket:   ", s.Key(), "\n");
  absl::StrAppend(
      &out, "trigger:  ", trigger.empty() ? TriggerSentence(s) : trigger, "\n");
  absl::StrAppendFormat(
      &out, "          opcode %s, resource %s, address %s, divergence %s\n",
      s.opcode, s.resource, s.address, s.divergence);
  absl::StrAppend(&out, "target:   ", s.target, "\n");
  absl::StrAppend(&out, "case:     ", c.file.empty() ? "(generated)" : c.file,
                  ": ", SizeOf(c).ToString(), ", dispatch ", c.groups[0], "x",
                  c.groups[1], "x", c.groups[2], "\n");
  if (!c.metadata.empty()) absl::StrAppend(&out, "provenance:\n");
  for (const auto& [k, v] : c.metadata)
    absl::StrAppend(&out, "  ", k, " = ", v, "\n");
}

// Final words the oracle's canonical run defines and the target disagrees
// with; flagged words (the judge's findings) come first and are marked.
std::vector<Row> MemoryRows(const isa::Outcome& spec, const isa::Outcome& seen,
                            const std::vector<oracle::Finding>& findings) {
  std::set<std::pair<int, int64_t>> flagged;
  for (const oracle::Finding& f : findings) {
    if (!f.tgsm && f.slot >= 0) flagged.insert({f.slot, f.word});
  }
  std::vector<Row> first, rest;
  for (const isa::UavState& want : spec.uavs) {
    const isa::UavState* got = seen.FindUav(want.slot);
    if (got == nullptr) continue;
    const size_t n = std::min(want.words.size(), got->words.size());
    for (size_t w = 0; w < n; ++w) {
      const bool marked =
          flagged.count({static_cast<int>(want.slot), static_cast<int64_t>(w)});
      const bool differs = want.defined[w] && want.words[w] != got->words[w];
      if (!marked && !differs) continue;
      Row r{absl::StrCat(marked ? "* " : "  ", "u", want.slot, "[", w, "]"),
            want.defined[w] ? Hex(want.words[w]) : kUndefined,
            Hex(got->words[w])};
      (marked ? first : rest).push_back(std::move(r));
    }
    if (want.counter && got->counter && *want.counter != *got->counter) {
      first.push_back({absl::StrCat("* u", want.slot, " counter"),
                       want.counter_defined ? Hex(*want.counter) : kUndefined,
                       Hex(*got->counter)});
    }
  }
  first.insert(first.end(), rest.begin(), rest.end());
  return first;
}

using Key = std::tuple<std::array<uint32_t, 3>, std::array<uint32_t, 3>,
                       uint32_t, uint32_t>;
Key KeyOf(const isa::AtomicEvent& e) {
  return {e.group, e.thread, e.instruction, e.occurrence};
}

// Returned values that differ from the canonical run's, for the atomics
// the findings name.
std::vector<Row> ReturnRows(const isa::Outcome& spec, const isa::Outcome& seen,
                            const std::set<uint32_t>& involved,
                            const isa::Program& printed) {
  std::map<Key, const isa::AtomicEvent*> want;
  for (const isa::AtomicEvent& e : spec.trace) want.emplace(KeyOf(e), &e);
  std::vector<Row> rows;
  for (const isa::AtomicEvent& e : seen.trace) {
    if (!involved.count(e.instruction)) continue;
    auto it = want.find(KeyOf(e));
    const std::optional<uint32_t> w =
        it == want.end() ? std::nullopt : it->second->returned;
    if (w == e.returned) continue;
    const int line = e.instruction < printed.instructions.size()
                         ? printed.instructions[e.instruction].line
                         : 0;
    const std::string occurrence =
        e.occurrence ? absl::StrCat(" #", e.occurrence) : "";
    rows.push_back(
        {absl::StrCat("line ", line, " ",
                      isa::InvocationName(printed, e.group, e.thread),
                      occurrence),
         w ? Hex(*w) : kUndefined, e.returned ? Hex(*e.returned) : "-"});
  }
  return rows;
}

// The atomics the findings name, else those on the findings' memories.
std::set<uint32_t> Involved(const isa::Program& p,
                            const std::vector<oracle::Finding>& fs) {
  std::set<uint32_t> out;
  for (const oracle::Finding& f : fs) {
    if (f.instruction >= 0) out.insert(static_cast<uint32_t>(f.instruction));
  }
  for (uint32_t i = 0; i < p.instructions.size() && out.empty(); ++i) {
    const isa::Instruction& inst = p.instructions[i];
    const int t = inst.info().operand_with_role(isa::Role::kTarget);
    if (!inst.info().is_atomic() || t < 0) continue;
    const isa::Operand& o = inst.operands[static_cast<size_t>(t)];
    for (const oracle::Finding& f : fs) {
      if (f.slot >= 0 && static_cast<uint32_t>(f.slot) == o.index &&
          (o.file == isa::RegFile::kTgsm) == f.tgsm) {
        out.insert(i);
      }
    }
  }
  return out;
}

void Atomics(std::string& out, const isa::Program& printed,
             std::set<uint32_t> involved) {
  absl::StrAppend(&out, "\natomics involved (lines of the printed case):\n");
  if (involved.empty()) {
    // The finding names no atomic (a word written by a plain store, say):
    // all of them, which in a reduced case is a short list.
    absl::StrAppend(&out,
                    "  (the findings name none; every atomic of the case:)\n");
    for (uint32_t i = 0; i < printed.instructions.size(); ++i) {
      if (printed.instructions[i].info().is_atomic()) involved.insert(i);
    }
  }
  for (uint32_t i : involved) {
    if (i >= printed.instructions.size()) continue;
    absl::StrAppendFormat(&out, "  line %4d: %s\n",
                          printed.instructions[i].line,
                          isa::PrintInstruction(printed.instructions[i]));
  }
}

// Line numbers as in PrintCase(c), which is what the store saves.
isa::Program Printed(const isa::Case& c) {
  absl::StatusOr<isa::Case> p = isa::ParseCase(isa::PrintCase(c));
  return p.ok() ? p->shader : c.shader;
}

}  // namespace

std::string RenderReport(const isa::Case& c, const Differential& d,
                         const Signature& signature,
                         const std::string& trigger) {
  std::string out;
  Header(out, c, signature, d.verdict.Summary(), trigger);
  const auto& fs = d.verdict.findings;
  absl::StrAppend(&out, "\nfindings (", fs.size(), "):\n");
  for (size_t i = 0; i < fs.size() && i < kMaxRows; ++i) {
    absl::StrAppend(&out, "  ", oracle::FindingKindName(fs[i].kind), " at ",
                    fs[i].where, ": ", fs[i].why, "\n");
  }
  for (const std::string& n : d.verdict.notes)
    absl::StrAppend(&out, "  note: ", n, "\n");

  const isa::Program printed = Printed(c);
  const std::set<uint32_t> involved = Involved(printed, fs);
  RunOptions spec_run;  // the oracle, canonical schedule
  absl::StatusOr<isa::Outcome> spec = RunCase(c, spec_run);
  if (!spec.ok() || spec->status != isa::RunStatus::kOk) {
    absl::StrAppend(
        &out, "\noracle run failed: ",
        spec.ok() ? spec->message : std::string(spec.status().message()), "\n");
  } else if (d.outcome.status != isa::RunStatus::kOk) {
    absl::StrAppend(
        &out, "\nthe target's run: ", isa::RunStatusName(d.outcome.status),
        ": ", d.outcome.message, "\n");
  } else {
    absl::StrAppend(
        &out,
        "\nmemory (* = flagged by the judge; oracle allows = the oracle's "
        "canonical run, ",
        kUndefined, " = undefined):\n");
    const std::vector<Row> words = MemoryRows(*spec, d.outcome, fs);
    absl::StrAppend(&out, words.empty() ? "  no final word differs\n"
                                        : Table(words, "location"));
    const std::vector<Row> returns =
        ReturnRows(*spec, d.outcome, involved, printed);
    if (!returns.empty()) {
      absl::StrAppend(
          &out,
          "\nreturned values that differ from the canonical run (another "
          "order may allow them; the findings above decide):\n",
          Table(returns, "atomic"));
    }
  }
  Atomics(out, printed, involved);
  return out;
}

std::string RenderWorkerFailureReport(const isa::Case& c,
                                      const Signature& signature,
                                      absl::string_view what) {
  std::string out;
  Header(out, c, signature, absl::StrCat(signature.divergence, ": ", what));
  absl::StrAppend(
      &out, "\nThe worker running this case ", what,
      "; no outcome was returned, so there is nothing to compare.\n");
  return out;
}

}  // namespace atomfuzz::fuzz
