#!/usr/bin/env bash
# Checks that every folder includes only the folders it may use (docs/
# architecture.md): isa <- {oracle, targets} <- fuzz (core <- generate <-
# mutate; core <- triage <- reduce; core <- export; campaign and engines over
# them) <- cli.
# Prints each include that breaks a rule; exit 1 if any does.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
# check FOLDER_GLOB ALLOWED_REGEX
check() {
  local files=$1 allowed=$2
  while IFS= read -r line; do
    echo "layering: $line"
    status=1
  done < <(grep -Hn '#include "' $files 2>/dev/null |
           grep -v '#include "absl/\|#include "gtest/\|#include "gmock/' |
           grep -Ev "#include \"($allowed)" || true)
}
check 'isa/*.cc isa/*.h' 'isa/'
check 'oracle/*.cc oracle/*.h oracle/internal/*.cc oracle/internal/*.h' 'isa/|oracle/'
# (targets/external implements the C interface in include/atomfuzz/.)
check 'targets/*.cc targets/*.h targets/*/*.cc targets/*/*.h' 'isa/|targets/|atomfuzz/|spirv-tools/'
core='isa/|oracle/|targets/|fuzz/(allowed_expectations|atomic_file|confined_paths|differential|oracle_target|result_json|runner|trace_addresses)\.h'
check 'fuzz/*.cc fuzz/*.h' "$core"
check 'fuzz/generate/*' 'isa/|fuzz/generate/'
check 'fuzz/mutate/*' 'isa/|fuzz/generate/|fuzz/mutate/'
check 'fuzz/triage/*' "$core|fuzz/triage/"
check 'fuzz/reduce/*' "$core|fuzz/triage/|fuzz/reduce/"
check 'fuzz/engines/*.cc fuzz/engines/*.h' "$core|fuzz/generate/|fuzz/mutate/|fuzz/triage/|fuzz/engines/"
check 'fuzz/export/*.cc fuzz/export/*.h' "$core|fuzz/export/"
check 'fuzz/campaign/*' "$core|fuzz/"
exit $status
