#!/usr/bin/env bash
# The main job: install what is missing, build, and run atomfuzz on its
# default work. Until the fuzzer lands (issue 5) that work is checking and
# summarising the corpus; this command stays the same when it does.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
cmake --preset default
cmake --build --preset default
build/atomfuzz validate corpus/seed/*.case
build/atomfuzz coverage corpus/seed/*.case
