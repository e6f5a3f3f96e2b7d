#!/usr/bin/env bash
# The main job: install what is missing, build, and run atomfuzz on its
# default work. Until the fuzzer lands (issue 5) that work is checking the
# corpora against the spec's rules and the reference oracle, and summarising
# their coverage; this command stays the same when it does.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
cmake --preset default
cmake --build --preset default
build/atomfuzz validate corpus/seed/*.case corpus/spec/*.case
build/atomfuzz check corpus/seed/*.case corpus/spec/*.case
build/atomfuzz judge --quiet --schedule=random:1 corpus/seed/*.case corpus/spec/*.case
build/atomfuzz coverage corpus/seed/*.case
