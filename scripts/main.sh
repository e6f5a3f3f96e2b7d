#!/usr/bin/env bash
# The main job: install what is missing, build, then a short differential
# fuzz campaign on the default targets: the fast executor judged by the
# reference oracle, and the oracle against itself under random schedules
# (which must never diverge). Findings, corpus and stats.json land in
# atomfuzz-out/<target>; a second run continues the same campaigns.
# ATOMFUZZ_MAIN_SECONDS (default 60) is the length of each campaign.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
cmake --preset default
cmake --build --preset default

seconds=${ATOMFUZZ_MAIN_SECONDS:-60}
jobs=$(nproc)
build/atomfuzz validate --quiet corpus/seed/*.case corpus/spec/*.case
status=0
for target in fast oracle; do
  out=atomfuzz-out/$target
  resume=()
  [[ -f $out/campaign.state ]] && resume=(--resume)
  echo "== atomfuzz fuzz --target=$target (${seconds}s, $jobs jobs) =="
  build/atomfuzz fuzz --target="$target" --seconds="$seconds" --jobs="$jobs" \
    --out="$out" "${resume[@]}" corpus/seed corpus/spec || status=$?
  build/atomfuzz triage "$out"
done
exit "$status"
