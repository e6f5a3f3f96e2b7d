#!/usr/bin/env bash
# Recompiles the fast executor's ALU handlers with clang's vectorizer remarks
# and summarises them: every lane loop should say "vectorized loop".
# Needs a configured default build (cmake --preset default).
set -euo pipefail
cd "$(dirname "$0")/../build"
cmd=$(python3 -c "
import json
entries = json.load(open('compile_commands.json'))
print(next(e['command'] for e in entries if e['file'].endswith('targets/fast/alu_handlers.cc')))")
eval "${cmd/-o */-o /dev/null -c ../targets/fast/alu_handlers.cc} -Rpass=loop-vectorize -Rpass-missed=loop-vectorize" 2>&1 |
  grep remark | sed -E 's/^[^:]+:([0-9]+):[0-9]+: remark: /line \1: /' | sort | uniq -c | sort -rn
