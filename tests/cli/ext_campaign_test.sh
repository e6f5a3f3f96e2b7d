#!/bin/sh
# A campaign on an external executor that crashes, hangs or aborts: every
# fault is a finding of its kind, the campaign finishes and exits 1 (new
# bucket); a supervisor killed with SIGKILL resumes without losing findings.
# Usage: ext_campaign_test.sh ATOMFUZZ LIBRARY
set -u
atomfuzz=$1 lib=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

for fault in crash:crash abort:crash hang:timeout; do
  mode=${fault%%:*} kind=${fault#*:}
  "$atomfuzz" fuzz --target="ext:$lib:$mode" --seconds=3 --timeout=1 --reduce-seconds=1 \
    --quiet --seed=5 --out="$out/$mode" >"$out/$mode.log" 2>&1
  rc=$?
  [ $rc -eq 1 ] || fail "$mode: exit $rc, expected 1 (a new bucket)"
  "$atomfuzz" triage "$out/$mode" >"$out/$mode.triage" || fail "$mode: triage failed"
  grep -q " $kind " "$out/$mode.triage" || fail "$mode: no '$kind' bucket: $(cat "$out/$mode.triage")"
  echo "$mode: $(tail -1 "$out/$mode.triage")"
done

# kill -9 the supervisor mid-campaign, then --resume: findings survive.
"$atomfuzz" fuzz --target="ext:$lib:crash" --seconds=60 --jobs=2 --quiet --seed=6 \
  --out="$out/killed" >"$out/killed.log" 2>&1 &
pid=$!
# The state is written every 5 s: kill after the first write and a finding.
for _ in $(seq 1 100); do
  [ -f "$out/killed/campaign.state" ] && [ -n "$(ls "$out/killed/findings" 2>/dev/null)" ] && break
  sleep 0.2
done
kill -9 $pid
wait $pid 2>/dev/null
before=$(ls "$out/killed/findings" | wc -l)
[ "$before" -ge 1 ] || fail "no finding before the kill"
"$atomfuzz" fuzz --target="ext:$lib:crash" --seconds=2 --jobs=2 --quiet --resume \
  --out="$out/killed" >"$out/resumed.log" 2>&1
rc=$?
[ $rc -eq 0 ] || fail "resume: exit $rc, expected 0 (no new bucket)"
after=$(ls "$out/killed/findings" | wc -l)
[ "$after" -ge "$before" ] || fail "findings before the kill $before, after resume $after"
echo "kill -9 and resume: $before finding(s) before, $after after"
