#include "fuzz/export/export_json.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "fuzz/differential.h"
#include "fuzz/result_json.h"
#include "isa/json.h"
#include "isa/outcome_format.h"
#include "oracle/judge.h"

namespace atomfuzz::fuzz {

absl::StatusOr<std::string> ExportJson(const isa::Case& c,
                                       const std::vector<std::string>& targets,
                                       const RunOptions& options) {
  absl::StatusOr<isa::Outcome> allowed = oracle::AllowedOutcome(c);
  if (!allowed.ok()) return allowed.status();
  std::vector<std::string> metadata;
  for (const auto& [key, value] : c.metadata)
    metadata.push_back(
        absl::StrCat(isa::JsonString(key), ": ", isa::JsonString(value)));
  std::vector<std::string> runs;
  for (const std::string& name : targets) {
    RunOptions o = options;
    o.target = name;
    absl::StatusOr<std::unique_ptr<targets::Target>> target = MakeTarget(o);
    if (!target.ok()) return target.status();
    const RunResult r = RunOne(c, **target);
    std::string outcome = "null";
    if (r.outcome) {
      outcome = isa::OutcomeJson(*r.outcome, r.outcome->has_trace);
      while (!outcome.empty() && outcome.back() == '\n') outcome.pop_back();
    }
    runs.push_back(absl::StrCat(
        "{\"target\": ", isa::JsonString(name),
        ", \"executor\": ", isa::JsonString((*target)->Describe()), ", ",
        RunResultJsonFields(r), ", \"outcome\": ", outcome, "}"));
  }
  std::string allowed_json = isa::OutcomeJson(*allowed, false);
  while (!allowed_json.empty() && allowed_json.back() == '\n')
    allowed_json.pop_back();
  return absl::StrCat(
      "{\"schema\": \"atomfuzz.export\", \"version\": ", kJsonSchemaVersion,
      ", \"file\": ", isa::JsonString(c.file),
      ", \"case\": ", isa::JsonString(isa::PrintCase(c)), ", \"metadata\": {",
      absl::StrJoin(metadata, ", "), "}, \"allowed\": ", allowed_json,
      ", \"targets\": [\n  ", absl::StrJoin(runs, ",\n  "), "\n]}\n");
}

}  // namespace atomfuzz::fuzz
