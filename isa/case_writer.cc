// PrintCase: the writing half of case_file.h. One canonical form: fixed
// section and key order, data compressed greedily into fill()/ramp().
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "isa/case_file.h"
#include "isa/printer.h"
#include "isa/raster.h"
#include "isa/spelling.h"
#include "isa/text_cursor.h"

namespace atomfuzz::isa {
namespace {

constexpr size_t kMinRun = 4;  // shorter runs are written out
constexpr size_t kItemsPerLine = 8;

// Data items for `words`, trailing zeros dropped (they are the default).
std::vector<std::string> DataItems(const std::vector<uint32_t>& words) {
  size_t n = words.size();
  while (n > 0 && words[n - 1] == 0) --n;
  std::vector<std::string> items;
  size_t i = 0;
  while (i < n) {
    const uint32_t step = i + 1 < n ? words[i + 1] - words[i] : 0;
    size_t run = 1;
    while (i + run < n && words[i + run] - words[i + run - 1] == step) ++run;
    if (run >= kMinRun && step == 0) {
      items.push_back(
          absl::StrCat("fill(", FormatLiteral(words[i]), ", ", run, ")"));
    } else if (run >= kMinRun) {
      items.push_back(absl::StrCat("ramp(", FormatLiteral(words[i]), ", ",
                                   FormatLiteral(step), ", ", run, ")"));
    } else {
      run = 1;
      items.push_back(FormatLiteral(words[i]));
    }
    i += run;
  }
  return items;
}

std::string Value(const ValueSet& v) {
  switch (v.kind) {
    case ValueSet::Kind::kAny: return "any";
    case ValueSet::Kind::kExact: return FormatLiteral(v.values[0]);
    case ValueSet::Kind::kOneOf: {
      std::vector<std::string> parts;
      for (uint32_t x : v.values) parts.push_back(FormatLiteral(x));
      return absl::StrCat("{", absl::StrJoin(parts, ", "), "}");
    }
  }
  return "?";
}

void PrintResource(const Resource& r, std::string& out) {
  absl::StrAppend(&out, "\n[uav u", r.slot, "]\nkind ",
                  ResourceKindName(r.kind), "\n");
  switch (r.kind) {
    case ResourceKind::kRaw:
      absl::StrAppend(&out, "words ", r.words, "\n");
      break;
    case ResourceKind::kStructured:
      absl::StrAppend(&out, "stride ", r.stride, "\nelements ", r.elements,
                      "\n");
      break;
    case ResourceKind::kTyped: {
      const int n = TypedAddressWidth(r.dim);
      std::vector<uint32_t> size(r.size.begin(), r.size.begin() + n);
      absl::StrAppend(&out, "dim ", DimName(r.dim), "\nformat ",
                      FormatName(r.format), "\nsize ",
                      absl::StrJoin(size, ", "), "\n");
      break;
    }
  }
  if (r.counter) absl::StrAppend(&out, "counter ", *r.counter, "\n");
  const std::vector<std::string> items = DataItems(r.init);
  for (size_t i = 0; i < items.size(); i += kItemsPerLine) {
    const size_t end = std::min(items.size(), i + kItemsPerLine);
    absl::StrAppend(&out, "data ",
                    absl::StrJoin(items.begin() + static_cast<long>(i),
                                  items.begin() + static_cast<long>(end), ", "),
                    "\n");
  }
}

void PrintExpectations(const Case& c, std::string& out) {
  // One [expect u#] per slot that has word or counter expectations.
  std::vector<uint32_t> slots;
  for (const auto& w : c.expect_words) slots.push_back(w.slot);
  for (const auto& k : c.expect_counters) slots.push_back(k.slot);
  std::sort(slots.begin(), slots.end());
  slots.erase(std::unique(slots.begin(), slots.end()), slots.end());
  for (uint32_t slot : slots) {
    absl::StrAppend(&out, "\n[expect u", slot, "]\n");
    for (const auto& w : c.expect_words) {
      if (w.slot != slot) continue;
      absl::StrAppend(&out, "word ", w.first);
      if (w.last != w.first) absl::StrAppend(&out, "..", w.last);
      absl::StrAppend(&out, " = ", Value(w.value), "\n");
    }
    for (const auto& k : c.expect_counters) {
      if (k.slot == slot)
        absl::StrAppend(&out, "counter = ", Value(k.value), "\n");
    }
  }
  if (c.expect_returns.empty()) return;
  out += "\n[expect returns]\n";
  for (const auto& e : c.expect_returns) {
    if (c.shader.pixel()) {
      absl::StrAppend(&out, "atomic ", e.atomic, " primitive ", e.group[0],
                      " pixel ", e.thread[0], ", ", e.thread[1]);
      if (e.thread[2] != 0) absl::StrAppend(&out, " sample ", e.thread[2]);
    } else {
      absl::StrAppend(&out, "atomic ", e.atomic, " group ",
                      absl::StrJoin(e.group, ", "), " thread ",
                      absl::StrJoin(e.thread, ", "));
    }
    if (e.occurrence != 0) absl::StrAppend(&out, " occurrence ", e.occurrence);
    absl::StrAppend(&out, " = ", Value(e.value), "\n");
  }
}

void PrintDraw(const Draw& d, std::string& out) {
  absl::StrAppend(&out, "[draw]\nframebuffer ", d.width, ", ", d.height,
                  "\nsamples ", d.samples, "\n");
  for (const Triangle& t : d.triangles) {
    out += "triangle ";
    for (size_t i = 0; i < 3; ++i) {
      absl::StrAppend(&out, i == 0 ? "" : ", ", FormatCoordinate(t.v[i][0]),
                      " ", FormatCoordinate(t.v[i][1]));
    }
    out += "\n";
  }
  // Read back as comments, which the reader drops: a picture, not data.
  if (!ClearMarginProblem(d)) {
    for (const std::string& line : CoverageComment(d)) {
      absl::StrAppend(&out, line, "\n");
    }
  }
}

}  // namespace

std::string PrintCase(const Case& c) {
  std::string out;
  for (const std::string& line : c.description)
    absl::StrAppend(&out, "#", line, "\n");
  if (!c.metadata.empty()) {
    if (!out.empty()) out += "\n";
    out += "[metadata]\n";
    for (const auto& [key, value] : c.metadata) {
      absl::StrAppend(&out, key, " =", value.empty() ? "" : " ", value, "\n");
    }
  }
  if (!out.empty()) out += "\n";
  const bool draws =
      c.shader.pixel() || c.draw_line != 0 || !(c.draw == Draw{});
  if (!draws || c.groups != std::array<uint32_t, 3>{1, 1, 1}) {
    absl::StrAppend(&out, "[dispatch]\ngroups ", absl::StrJoin(c.groups, ", "),
                    "\n");
  }
  if (draws) PrintDraw(c.draw, out);
  for (const Resource& r : c.resources) PrintResource(r, out);
  absl::StrAppend(&out, "\n[shader]\n", Print(c.shader));
  PrintExpectations(c, out);
  return out;
}

Case NumberedAsPrinted(const Case& c) {
  absl::StatusOr<Case> reparsed = ParseCase(PrintCase(c), c.file);
  return reparsed.ok() ? *std::move(reparsed) : c;
}

}  // namespace atomfuzz::isa
