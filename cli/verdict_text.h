// How subcommands print a judge's verdict: "LABEL: <summary>", then up to
// nine more findings, one per line.
#ifndef ATOMFUZZ_CLI_VERDICT_TEXT_H_
#define ATOMFUZZ_CLI_VERDICT_TEXT_H_

#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "fuzz/differential.h"
#include "oracle/judge.h"
#include "targets/target.h"

namespace atomfuzz::cli {

void PrintVerdict(std::FILE* out, absl::string_view label,
                  const oracle::Verdict& v);

// What every command prints of a fuzz::RunOne and the exit code it means, one
// rule per kind: a verdict as PrintVerdict (1 for a divergence, else 0); a
// case the judge declined, "LABEL: not judged: why" (0); a target or judge
// that failed, "FILE: target failed: why" on stderr (3).
int ReportRun(std::FILE* out, absl::string_view label, absl::string_view file,
              const fuzz::RunResult& r);
// The exit code ReportRun gives `r`, printing nothing.
int ExitCodeOf(const fuzz::RunResult& r);
// Of two exit codes, the one a command ends with: bad input outweighs a
// failed tool, which outweighs a failed check.
int WorseExit(int a, int b);

// A case file that did not load, as one entry of a --json document (the
// diagnostic itself went to stderr).
std::string BadInputJson(absl::string_view file);

// Prints a `--json` document of docs/schema/atomfuzz.schema.json: the
// schema's name ("atomfuzz.judge"), its version, the target, the schedule
// flag, the cases' entries, then `totals` (`"passed": 3, ...`).
void PrintJsonDocument(absl::string_view schema, const targets::Target& target,
                       const std::vector<std::string>& cases,
                       absl::string_view totals);

}  // namespace atomfuzz::cli

#endif  // ATOMFUZZ_CLI_VERDICT_TEXT_H_
