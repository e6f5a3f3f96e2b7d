// Machine-readable verdicts: what `judge --json`, `check --json` and
// `export --format=json` print, as described by the JSON schema in
// docs/schema/atomfuzz.schema.json (its version is kJsonSchemaVersion).
#ifndef ATOMFUZZ_FUZZ_RESULT_JSON_H_
#define ATOMFUZZ_FUZZ_RESULT_JSON_H_

#include <string>

#include "fuzz/differential.h"
#include "isa/expectation_check.h"
#include "oracle/judge.h"

namespace atomfuzz::fuzz {

// Bumped when a field changes meaning or goes away (new fields do not).
inline constexpr int kJsonSchemaVersion = 1;

// {"kind": "allowed"|"divergence"|"unknown", "summary", "findings": [...],
//  "unknown": [...], "notes": [...]}
std::string VerdictJson(const oracle::Verdict& v);
// {"run": "judged"|"ran"|"not-judged"|"target-failed"|"judge-failed",
//  "message", "status": the outcome's run status or null,
//  "verdict": VerdictJson or null}, without the braces, for a caller that
// adds its own fields (the file).
std::string RunResultJsonFields(const RunResult& r);
// {"line", "where", "expected", "got"}
std::string MismatchJson(const isa::Mismatch& m);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_RESULT_JSON_H_
