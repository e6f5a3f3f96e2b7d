#include "isa/expectation_check.h"

#include <algorithm>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace atomfuzz::isa {
namespace {

std::string Hex(uint32_t v) { return absl::StrFormat("0x%08x", v); }

std::string Describe(const ValueSet& v) {
  switch (v.kind) {
    case ValueSet::Kind::kAny: return "any";
    case ValueSet::Kind::kExact: return Hex(v.values[0]);
    case ValueSet::Kind::kOneOf: {
      std::vector<std::string> parts;
      for (uint32_t x : v.values) parts.push_back(Hex(x));
      return absl::StrCat("one of {", absl::StrJoin(parts, ", "), "}");
    }
  }
  return "?";
}

// nullopt = undefined.
bool Meets(const ValueSet& want, std::optional<uint32_t> got) {
  if (want.kind == ValueSet::Kind::kAny) return true;
  return got.has_value() && want.Allows(*got);
}

std::string Show(std::optional<uint32_t> v) { return v ? Hex(*v) : "????????"; }

std::string Xyz(const std::array<uint32_t, 3>& v) {
  return absl::StrCat("(", v[0], ",", v[1], ",", v[2], ")");
}

}  // namespace

std::string Mismatch::Render() const {
  return absl::StrCat(where, ": expected ", expected, ", got ", got);
}

std::vector<Mismatch> CheckExpectations(const Case& c, const Outcome& o) {
  std::vector<Mismatch> out;
  for (const WordExpectation& w : c.expect_words) {
    const UavState* u = o.FindUav(w.slot);
    for (uint64_t i = w.first; i <= w.last; ++i) {
      std::optional<uint32_t> got;
      if (u != nullptr && i < u->words.size() && u->defined[i])
        got = u->words[i];
      const std::vector<uint32_t>* choices =
          u != nullptr && i < u->words.size() && !got
              ? u->ChoicesOf(static_cast<uint32_t>(i))
              : nullptr;
      if (u == nullptr || i >= u->words.size()) {
        out.push_back({absl::StrCat("u", w.slot, "[", i, "]"),
                       Describe(w.value), "no such word", w.line});
      } else if (choices != nullptr) {
        // One of a few: each must be one the expectation allows.
        const bool meets =
            std::all_of(choices->begin(), choices->end(),
                        [&](uint32_t x) { return Meets(w.value, x); });
        if (!meets) {
          out.push_back({absl::StrCat("u", w.slot, "[", i, "]"),
                         Describe(w.value),
                         Describe({ValueSet::Kind::kOneOf, *choices}), w.line});
        }
      } else if (!Meets(w.value, got)) {
        out.push_back({absl::StrCat("u", w.slot, "[", i, "]"),
                       Describe(w.value), Show(got), w.line});
      }
    }
  }
  for (const CounterExpectation& k : c.expect_counters) {
    const UavState* u = o.FindUav(k.slot);
    std::optional<uint32_t> got;
    if (u != nullptr && u->counter && u->counter_defined) got = *u->counter;
    if (!Meets(k.value, got)) {
      out.push_back({absl::StrCat("u", k.slot, " counter"), Describe(k.value),
                     u && u->counter ? Show(got) : "no counter", k.line});
    }
  }
  // Instruction index of each returning atomic, in program order.
  std::vector<uint32_t> returning;
  for (uint32_t i = 0; i < c.shader.instructions.size(); ++i) {
    if (c.shader.instructions[i].info().returns_old()) returning.push_back(i);
  }
  for (const ReturnExpectation& e : c.expect_returns) {
    const std::string where = absl::StrCat(
        "atomic ", e.atomic, " group ", Xyz(e.group), " thread ", Xyz(e.thread),
        e.occurrence ? absl::StrCat(" occurrence ", e.occurrence) : "");
    if (e.atomic >= returning.size()) {
      out.push_back({where, Describe(e.value), "no such atomic", e.line});
      continue;
    }
    const AtomicEvent* found = nullptr;
    for (const AtomicEvent& ev : o.trace) {
      if (ev.instruction == returning[e.atomic] && ev.group == e.group &&
          ev.thread == e.thread && ev.occurrence == e.occurrence) {
        found = &ev;
        break;
      }
    }
    if (found == nullptr) {
      out.push_back({where, Describe(e.value),
                     o.has_trace ? "not executed" : "no trace", e.line});
    } else if (!Meets(e.value, found->returned)) {
      out.push_back({where, Describe(e.value), Show(found->returned), e.line});
    }
  }
  return out;
}

}  // namespace atomfuzz::isa
