#include "isa/outcome_format.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "isa/json.h"

namespace atomfuzz::isa {
namespace {

constexpr size_t kWordsPerLine = 8;

std::string Hex(uint32_t v) { return absl::StrFormat("%08x", v); }

std::string Xyz(const std::array<uint32_t, 3>& v) {
  return absl::StrCat(v[0], ",", v[1], ",", v[2]);
}

}  // namespace

std::string OutcomeText(const Outcome& o, const Program& program, bool trace) {
  std::string out = absl::StrCat("status: ", RunStatusName(o.status));
  if (!o.message.empty()) absl::StrAppend(&out, " (", o.message, ")");
  out += "\n";
  for (const UavState& u : o.uavs) {
    absl::StrAppend(&out, "u", u.slot, ":");
    if (u.counter) {
      absl::StrAppend(&out, " counter ",
                      u.counter_defined ? Hex(*u.counter) : "????????");
    }
    out += "\n";
    for (size_t i = 0; i < u.words.size(); i += kWordsPerLine) {
      absl::StrAppend(&out, absl::StrFormat("  %5d:", i));
      for (size_t k = i; k < u.words.size() && k < i + kWordsPerLine; ++k) {
        const bool one_of =
            !u.defined[k] && u.ChoicesOf(static_cast<uint32_t>(k));
        absl::StrAppend(&out, " ",
                        u.defined[k] ? Hex(u.words[k])
                        : one_of     ? "{one of}"
                                     : "????????");
      }
      out += "\n";
    }
    // Words that are one of a few values (the {...} above), listed apart.
    for (const WordChoice& c : u.choices) {
      absl::StrAppend(&out, absl::StrFormat("  %5d: one of {", c.word));
      for (size_t k = 0; k < c.values.size(); ++k) {
        absl::StrAppend(&out, k ? ", " : "", Hex(c.values[k]));
      }
      out += "}\n";
    }
  }
  if (!trace) return out;
  absl::StrAppend(&out, "trace: ", o.trace.size(), " atomics\n");
  for (const AtomicEvent& e : o.trace) {
    const absl::string_view name =
        e.instruction < program.instructions.size()
            ? program.instructions[e.instruction].info().mnemonic
            : "?";
    absl::StrAppend(&out, "  ", InvocationName(program, e.group, e.thread),
                    " #", e.instruction, " ", name, " ",
                    e.file == RegFile::kUav ? "u" : "g", e.slot, "[", e.word,
                    "] ", AddressClassName(e.address), " src ", Hex(e.src0),
                    " ", Hex(e.src1), " -> ",
                    e.returned ? Hex(*e.returned) : "????????");
    if (e.occurrence) absl::StrAppend(&out, " (occurrence ", e.occurrence, ")");
    out += "\n";
  }
  return out;
}

std::string OutcomeJson(const Outcome& o, bool trace) {
  std::string out =
      absl::StrCat("{\"status\": ", JsonString(RunStatusName(o.status)),
                   ", \"message\": ", JsonString(o.message), ", \"uavs\": [");
  for (size_t i = 0; i < o.uavs.size(); ++i) {
    const UavState& u = o.uavs[i];
    std::vector<std::string> words;
    for (size_t k = 0; k < u.words.size(); ++k) {
      const std::vector<uint32_t>* one_of =
          u.defined[k] ? nullptr : u.ChoicesOf(static_cast<uint32_t>(k));
      words.push_back(u.defined[k] ? absl::StrCat(u.words[k])
                      : one_of
                          ? absl::StrCat("{\"one_of\": [",
                                         absl::StrJoin(*one_of, ", "), "]}")
                          : "null");
    }
    absl::StrAppend(&out, i ? ", " : "", "{\"slot\": ", u.slot,
                    ", \"words\": [", absl::StrJoin(words, ", "), "]");
    if (u.counter) {
      absl::StrAppend(&out, ", \"counter\": ",
                      u.counter_defined ? absl::StrCat(*u.counter) : "null");
    }
    out += "}";
  }
  out += "]";
  if (trace) {
    out += ", \"trace\": [";
    for (size_t i = 0; i < o.trace.size(); ++i) {
      const AtomicEvent& e = o.trace[i];
      absl::StrAppend(
          &out, i ? ", " : "", "{\"group\": [", Xyz(e.group),
          "], \"thread\": [", Xyz(e.thread),
          "], \"instruction\": ", e.instruction,
          ", \"occurrence\": ", e.occurrence, ", \"memory\": \"",
          e.file == RegFile::kUav ? "u" : "g", e.slot, "\", \"word\": ", e.word,
          ", \"address\": ", JsonString(AddressClassName(e.address)),
          ", \"src0\": ", e.src0, ", \"src1\": ", e.src1,
          ", \"returned\": ", e.returned ? absl::StrCat(*e.returned) : "null",
          "}");
    }
    out += "]";
  }
  return out + "}\n";
}

std::string InvocationName(const Program& program,
                           const std::array<uint32_t, 3>& group,
                           const std::array<uint32_t, 3>& thread) {
  if (program.pixel()) {
    return absl::StrCat(
        "primitive ", group[0], " pixel (", thread[0], ",", thread[1], ")",
        thread[2] != 0 ? absl::StrCat(" sample ", thread[2]) : std::string());
  }
  return absl::StrCat("group (", group[0], ",", group[1], ",", group[2],
                      ") thread (", thread[0], ",", thread[1], ",", thread[2],
                      ")");
}

}  // namespace atomfuzz::isa
