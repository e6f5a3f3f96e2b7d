#include "cli/verdict_text.h"

#include <string>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "fuzz/result_json.h"
#include "isa/json.h"

namespace atomfuzz::cli {

void PrintVerdict(std::FILE* out, absl::string_view label,
                  const oracle::Verdict& v) {
  std::fprintf(out, "%s: %s\n", std::string(label).c_str(),
               v.Summary().c_str());
  for (size_t i = 1; i < v.findings.size() && i < 10; ++i) {
    const oracle::Finding& f = v.findings[i];
    std::fprintf(out, "  also %s at %s: %s\n",
                 std::string(oracle::FindingKindName(f.kind)).c_str(),
                 f.where.c_str(), f.why.c_str());
  }
}

int ReportRun(std::FILE* out, absl::string_view label, absl::string_view file,
              const fuzz::RunResult& r) {
  switch (r.kind) {
    case fuzz::RunKind::kTargetFailed:
    case fuzz::RunKind::kJudgeFailed:
      std::fprintf(stderr, "%s: %s: %s\n", std::string(file).c_str(),
                   std::string(fuzz::RunKindName(r.kind)).c_str(),
                   r.message.c_str());
      return kExitToolFailed;
    case fuzz::RunKind::kNotJudged:
    case fuzz::RunKind::kRan:
      std::fprintf(out, "%s: not judged: %s\n", std::string(label).c_str(),
                   r.message.c_str());
      return kExitOk;
    case fuzz::RunKind::kJudged: break;
  }
  PrintVerdict(out, label, r.verdict);
  return ExitCodeOf(r);
}

int ExitCodeOf(const fuzz::RunResult& r) {
  switch (r.kind) {
    case fuzz::RunKind::kTargetFailed:
    case fuzz::RunKind::kJudgeFailed: return kExitToolFailed;
    case fuzz::RunKind::kNotJudged:
    case fuzz::RunKind::kRan: return kExitOk;
    case fuzz::RunKind::kJudged: break;
  }
  return r.verdict.kind == oracle::Verdict::Kind::kDivergence ? kExitCheckFailed
                                                              : kExitOk;
}

int WorseExit(int a, int b) {
  const auto rank = [](int code) {
    switch (code) {
      case kExitBadInput: return 3;
      case kExitToolFailed: return 2;
      case kExitCheckFailed: return 1;
      default: return 0;
    }
  };
  return rank(b) > rank(a) ? b : a;
}

std::string BadInputJson(absl::string_view file) {
  return absl::StrCat("{\"file\": ", isa::JsonString(file),
                      ", \"run\": \"bad-input\", \"message\": "
                      "\"the file did not load (see stderr)\", \"status\": "
                      "null, \"verdict\": null}");
}

void PrintJsonDocument(absl::string_view schema, const targets::Target& target,
                       const std::vector<std::string>& cases,
                       absl::string_view totals) {
  const std::string doc = absl::StrCat(
      "{\"schema\": ", isa::JsonString(schema),
      ", \"version\": ", fuzz::kJsonSchemaVersion,
      ", \"target\": ", isa::JsonString(target.name()),
      ", \"executor\": ", isa::JsonString(target.Describe()),
      ", \"schedule\": ", isa::JsonString(absl::GetFlag(FLAGS_schedule)),
      ", \"cases\": [\n  ", absl::StrJoin(cases, ",\n  "), "\n], ", totals,
      "}\n");
  std::fwrite(doc.data(), 1, doc.size(), stdout);
}

}  // namespace atomfuzz::cli
