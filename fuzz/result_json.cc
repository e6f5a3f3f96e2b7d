#include "fuzz/result_json.h"

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "isa/json.h"

namespace atomfuzz::fuzz {
namespace {

using isa::JsonNumber;
using isa::JsonString;

std::string StringArray(const std::vector<std::string>& items) {
  std::vector<std::string> quoted;
  quoted.reserve(items.size());
  for (const std::string& s : items) quoted.push_back(JsonString(s));
  return absl::StrCat("[", absl::StrJoin(quoted, ", "), "]");
}

absl::string_view VerdictKindName(oracle::Verdict::Kind k) {
  switch (k) {
    case oracle::Verdict::Kind::kAllowed: return "allowed";
    case oracle::Verdict::Kind::kDivergence: return "divergence";
    case oracle::Verdict::Kind::kUnknown: return "unknown";
  }
  return "unknown";
}

std::string FindingJson(const oracle::Finding& f) {
  const std::string memory =
      f.slot < 0 ? "null"
                 : JsonString(absl::StrCat(f.tgsm ? "g" : "u", f.slot));
  return absl::StrCat(
      "{\"kind\": ", JsonString(oracle::FindingKindName(f.kind)),
      ", \"where\": ", JsonString(f.where), ", \"why\": ", JsonString(f.why),
      ", \"instruction\": ",
      JsonNumber(f.instruction < 0 ? std::nullopt
                                   : std::optional<int64_t>(f.instruction)),
      ", \"memory\": ", memory, ", \"word\": ",
      JsonNumber(f.word < 0 ? std::nullopt : std::optional<int64_t>(f.word)),
      "}");
}

}  // namespace

std::string VerdictJson(const oracle::Verdict& v) {
  std::vector<std::string> findings;
  for (const oracle::Finding& f : v.findings)
    findings.push_back(FindingJson(f));
  return absl::StrCat("{\"kind\": ", JsonString(VerdictKindName(v.kind)),
                      ", \"summary\": ", JsonString(v.Summary()),
                      ", \"findings\": [", absl::StrJoin(findings, ", "),
                      "], \"unknown\": ", StringArray(v.unknown),
                      ", \"notes\": ", StringArray(v.notes), "}");
}

std::string RunResultJsonFields(const RunResult& r) {
  // Machine names: "not-judged", not the prose "not judged".
  const std::string run =
      absl::StrReplaceAll(RunKindName(r.kind), {{" ", "-"}});
  return absl::StrCat(
      "\"run\": ", JsonString(run), ", \"message\": ", JsonString(r.message),
      ", \"status\": ",
      r.outcome ? JsonString(isa::RunStatusName(r.outcome->status)) : "null",
      ", \"verdict\": ",
      r.kind == RunKind::kJudged ? VerdictJson(r.verdict) : "null");
}

std::string MismatchJson(const isa::Mismatch& m) {
  return absl::StrCat("{\"line\": ", m.line,
                      ", \"where\": ", JsonString(m.where),
                      ", \"expected\": ", JsonString(m.expected),
                      ", \"got\": ", JsonString(m.got), "}");
}

}  // namespace atomfuzz::fuzz
