#!/usr/bin/env bash
# Dumps the verdicts of one build for comparing with another: a speed-up of
# the generator, mutator, a target or the judge must change none of them.
#   scripts/dump-verdicts.sh JUDGE_BENCH OUTDIR [CASES] [CORPUS_DIR]
# JUDGE_BENCH is a build's bench/judge_bench. Writes one file per run to
# OUTDIR: generated cases with no injection, each injection, the oracle
# under random schedules, no trace, a second seed, and the cases themselves;
# with CORPUS_DIR (a campaign's corpus, kept fixed between the two builds)
# the same on the campaign's mix of 30% mutants. Compare: diff -r OLD NEW.
set -euo pipefail
bench=$1 out=$2 cases=${3:-20000} corpus=${4:-}
mkdir -p "$out"
run() { local name=$1; shift; "$bench" --cases="$cases" "$@" > "$out/$name.txt" 2>/dev/null; }
run none --dump
run oracle --inject=oracle --dump
run notrace --notrace --dump
run seed99 --seed=99 --dump
run cases --print-cases
for inject in $("$(dirname "$bench")/../atomfuzz" fuzz --inject=list); do
  run "inject-$inject" --inject="$inject" --dump
done
if [[ -n "$corpus" ]]; then
  run mix --corpus="$corpus" --dump
  run mix-notrace --corpus="$corpus" --notrace --dump
  run mix-mutants --corpus="$corpus" --mutate=1000 --seed=3 --dump
  run mix-cases --corpus="$corpus" --mutate=1000 --seed=3 --print-cases
fi
(cd "$out" && md5sum ./*.txt)
