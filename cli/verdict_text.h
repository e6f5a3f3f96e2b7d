// How subcommands print a judge's verdict: "LABEL: <summary>", then up to
// nine more findings, one per line.
#ifndef ATOMFUZZ_CLI_VERDICT_TEXT_H_
#define ATOMFUZZ_CLI_VERDICT_TEXT_H_

#include <cstdio>

#include "absl/strings/string_view.h"
#include "oracle/judge.h"

namespace atomfuzz::cli {

void PrintVerdict(std::FILE* out, absl::string_view label, const oracle::Verdict& v);

}  // namespace atomfuzz::cli

#endif  // ATOMFUZZ_CLI_VERDICT_TEXT_H_
