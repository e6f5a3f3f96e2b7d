#!/usr/bin/env bash
# Scenarios of issue 21, one per ctest test (label `reliability`): hostile
# inputs and flags, output files that are not plain files, nesting that
# would make output quadratic, and campaigns that must not lose work
# silently. Usage: reliability_test.sh ATOMFUZZ REPO SCENARIO
set -uo pipefail
atomfuzz=$1
repo=$2
scenario=$3
work=$(mktemp -d)
mounted=""
cleanup() {
  [[ -n $mounted ]] && umount "$mounted" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
seed_case=$repo/corpus/seed/e01-iadd-wrap-uav-raw.case

fail() {
  echo "FAIL $scenario: $*"
  exit 1
}
skip() {  # ctest counts exit 0; the reason is printed
  echo "SKIP $scenario: $*"
  exit 0
}
# expect_exit WANT SECONDS COMMAND...: the command ends within SECONDS
# with exit WANT; its stderr is in $work/err.
expect_exit() {
  local want=$1 seconds=$2 got=0
  shift 2
  timeout "$seconds" "$@" >"$work/out" 2>"$work/err" || got=$?
  [[ $got == 124 ]] && fail "'$*' still running after ${seconds}s"
  [[ $got == "$want" ]] ||
    fail "'$*' exited $got, expected $want: $(head -c 300 "$work/err")"
}

# A small tmpfs, where the machine lets us mount one.
mount_tmpfs() {  # SIZE
  mkdir -p "$work/mnt"
  mount -t tmpfs -o "size=$1" tmpfs "$work/mnt" 2>/dev/null ||
    skip "cannot mount a tmpfs here (needs root or a user namespace)"
  mounted=$work/mnt
}

case $scenario in
  special_inputs)
    # Each reads as what it is, at once: no hang, no 4 GB read.
    mkfifo "$work/fifo"
    ln -s "$work/loop2" "$work/loop1"
    ln -s "$work/loop1" "$work/loop2"
    for input in /dev/zero "$work/fifo" "$work/loop1" "$work"; do
      for cmd in validate fmt judge disasm decode; do
        expect_exit 2 5 "$atomfuzz" "$cmd" "$input"
        grep -q "expected a regular file\|Too many levels" "$work/err" ||
          fail "$cmd $input: $(cat "$work/err")"
      done
    done
    ;;
  bad_flags)
    while read -r cmd flag; do
      expect_exit 2 10 "$atomfuzz" $cmd "$flag" "$seed_case"
      grep -q -- "expected" "$work/err" || fail "$cmd $flag: $(cat "$work/err")"
    done <<'LIST'
judge --timeout=nan
judge --timeout=inf
judge --timeout=-1
judge --timeout=1e308
judge --threads=-3
reduce --max-attempts=0
reduce --seconds=nan
fuzz --seconds=1e308
fuzz --jobs=0
fuzz --out=
fuzz --reduce-seconds=-1
fuzz --save-every=0
fuzz --save-every=nan
LIST
    ;;
  output_files)
    cd "$work" || exit 1
    # Through to a device, never replacing it.
    expect_exit 0 10 "$atomfuzz" gen --seed=1 -o /dev/null
    [[ -c /dev/null ]] || fail "/dev/null is no longer a device"
    # Through to a FIFO with a reader; an error without one.
    mkfifo pipe
    expect_exit 2 5 "$atomfuzz" gen --seed=1 -o pipe
    grep -q "no reader" err || fail "$(cat err)"
    cat pipe >got &
    sleep 0.3
    expect_exit 0 10 "$atomfuzz" gen --seed=1 -o pipe
    wait
    grep -q "^\[shader\]" got || fail "the FIFO's reader got: $(head -c 100 got)"
    # A symlink is not replaced.
    "$atomfuzz" fmt "$seed_case" >target.case
    ln -s target.case link.case
    expect_exit 2 10 "$atomfuzz" gen --seed=1 -o link.case
    [[ -L link.case ]] || fail "the symlink was replaced"
    # Unless asked: then the file it points to is written, the link kept.
    expect_exit 0 10 "$atomfuzz" gen --seed=1 --follow-symlinks -o link.case
    [[ -L link.case ]] || fail "--follow-symlinks replaced the symlink"
    cmp -s link.case <("$atomfuzz" gen --seed=1) || fail "the target was not written"
    ln -s loop1 loop2 && ln -s loop2 loop1
    expect_exit 2 10 "$atomfuzz" gen --seed=1 --follow-symlinks -o loop1
    grep -q "a loop" "$work/err" || fail "$(cat "$work/err")"
    "$atomfuzz" fmt "$seed_case" >target.case
    # fmt --in-place keeps the file's mode.
    chmod 600 target.case
    echo "# not canonical" >>target.case
    expect_exit 0 10 "$atomfuzz" fmt --in-place target.case
    [[ $(stat -c %a target.case) == 600 ]] || fail "mode $(stat -c %a target.case)"
    ;;
  nesting)
    # 32,000 nested blocks: refused by the validator, and printed (with
    # --novalidate) in linear size.
    python3 - "$work" <<'PY'
import sys
n = 32000
body = "if_nz l(1)\n" * n + "endif\n" * n
open(sys.argv[1] + "/deep.case", "w").write(
    "[dispatch]\ngroups 1, 1, 1\n\n[uav u0]\nkind raw\nwords 1\n\n[shader]\n"
    "cs_5_0\ndcl_uav_raw u0\ndcl_thread_group 1, 1, 1\n" + body + "ret\n")
PY
    expect_exit 1 20 "$atomfuzz" validate "$work/deep.case"
    grep -q "at most 64 blocks nested" "$work/out" "$work/err" ||
      fail "$(head -c 300 "$work/out")"
    expect_exit 0 20 "$atomfuzz" fmt --novalidate "$work/deep.case"
    size=$(stat -c %s "$work/out")
    ((size < 20000000)) || fail "fmt printed $size bytes for a 400 KB case"
    ;;
  lock)
    "$atomfuzz" fuzz --target=fast --seconds=8 --seed=3 --quiet \
      --out="$work/c" >/dev/null 2>&1 &
    first=$!
    for _ in $(seq 200); do [[ -f $work/c/campaign.state ]] && break; sleep 0.1; done
    expect_exit 2 10 "$atomfuzz" fuzz --target=fast --seconds=2 --resume \
      --out="$work/c"
    grep -q "another campaign is running" "$work/err" || fail "$(cat "$work/err")"
    kill "$first"
    wait "$first"
    ;;
  early_kill)
    # Killed before its first periodic save (5 s), it still resumes.
    "$atomfuzz" fuzz --target=fast --inject=rmw-not-atomic --seconds=30 \
      --seed=3 --quiet --out="$work/c" >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 400); do [[ -f $work/c/campaign.state ]] && break; sleep 0.05; done
    kill -9 "$pid"
    wait "$pid" 2>/dev/null
    [[ -f $work/c/campaign.state ]] || fail "no campaign.state after an early kill"
    # Exit 1 if this session found the first bucket, 0 if the killed one
    # had saved it already; 2 would be a refusal to resume.
    got=0
    timeout 60 "$atomfuzz" fuzz --target=fast --inject=rmw-not-atomic \
      --seconds=2 --resume --quiet --out="$work/c" >"$work/out" 2>"$work/err" ||
      got=$?
    [[ $got == 0 || $got == 1 ]] ||
      fail "--resume after an early kill exited $got: $(head -c 300 "$work/err")"
    ;;
  kills_change_nothing)
    # kill -9s and --resumes leave what an uninterrupted campaign of the
    # same seed and number of cases finds: buckets, hits, corpus, counts.
    runs=60000
    args=(fuzz --target=fast --inject=rmw-not-atomic --jobs=2 --seed=5 --quiet
      --save-every=0.3)
    found() {  # DIR: buckets with hits, kept corpus, state without time
      "$atomfuzz" triage "$1" | awk '$2 ~ /^[0-9]+$/ {print $1, $2}'
      ls "$1/corpus"
      grep -v '^elapsed' "$1/campaign.state"
    }
    next_index() { awk '$1 == "next_index" {print $2}' "$1/campaign.state"; }
    timeout 200 "$atomfuzz" "${args[@]}" --runs=$runs --out="$work/ref" \
      "$seed_case" >/dev/null 2>&1
    found "$work/ref" >"$work/ref.found"
    grep -q '^next_index 60000$' "$work/ref.found" || fail "reference: $(cat "$work/ref.found")"
    # --runs counts a session's cases, so each resume asks for the rest
    # (--runs=0 would mean no end).
    left() { echo $((runs - $(next_index "$work/c" 2>/dev/null || echo 0))); }
    # Kills at a tenth, a quarter and half of the reference's time.
    tenths=$(awk '$1 == "elapsed" {printf "%d", $2 * 10}' "$work/ref/campaign.state")
    resume=()
    for pause in $((tenths / 10 + 1)) $((tenths / 4 + 1)) $((tenths / 2 + 1)); do
      pause=$((pause / 10)).$((pause % 10))
      [[ $(left) -gt 0 ]] || break
      "$atomfuzz" "${args[@]}" "${resume[@]}" --runs="$(left)" \
        --out="$work/c" "$seed_case" >/dev/null 2>&1 &
      pid=$!
      sleep "$pause"
      kill -9 "$pid" 2>/dev/null
      wait "$pid" 2>/dev/null
      echo "killed after ${pause}s at next_index $(next_index "$work/c")"
      resume=(--resume)
      sleep 0.3  # the workers die with their supervisor
    done
    if [[ $(left) -gt 0 ]]; then
      timeout 200 "$atomfuzz" "${args[@]}" --resume --runs="$(left)" \
        --out="$work/c" "$seed_case" >/dev/null 2>&1
    fi
    found "$work/c" >"$work/c.found"
    diff "$work/ref.found" "$work/c.found" >"$work/diff" ||
      fail "killed and resumed, it found otherwise: $(head -c 600 "$work/diff")"
    head -3 "$work/ref.found"
    ;;
  policy_resume)
    "$atomfuzz" fuzz --target=fast --policy=tgsm --runs=20 --seed=3 --quiet \
      --out="$work/c" >/dev/null 2>&1
    expect_exit 2 10 "$atomfuzz" fuzz --target=fast --policy=bounds --runs=10 \
      --resume --out="$work/c"
    grep -q "runs policy 'tgsm'" "$work/err" || fail "$(cat "$work/err")"
    expect_exit 0 30 "$atomfuzz" fuzz --target=fast --runs=10 --resume \
      --out="$work/c"
    grep -q "policy tgsm" "$work/err" "$work/out" || fail "resumed as another policy"
    ;;
  leftover_temp_files)
    "$atomfuzz" fuzz --target=fast --runs=10 --seed=3 --quiet \
      --out="$work/c" >/dev/null 2>&1
    touch "$work/c/campaign.state.tmp.123-4-5" "$work/c/corpus/x.case.tmp.1-2-3"
    expect_exit 0 30 "$atomfuzz" fuzz --target=fast --runs=5 --resume --quiet \
      --out="$work/c"
    [[ -z $(find "$work/c" -name '*.tmp.*') ]] || fail "$(find "$work/c" -name '*.tmp.*')"
    ;;
  disk_full)
    mount_tmpfs 2m
    expect_exit 3 120 "$atomfuzz" fuzz --target=fast --inject=rmw-not-atomic \
      --seconds=60 --seed=7 --jobs=2 --out="$work/mnt/c"
    grep -q "No space left on device; stopping the campaign" "$work/err" ||
      fail "no word of the failed write: $(tail -3 "$work/err")"
    [[ -f $work/mnt/c/campaign.state ]] || fail "no campaign.state"
    ;;
  read_only)
    mount_tmpfs 20m
    "$atomfuzz" fuzz --target=fast --runs=30 --seed=3 --quiet \
      --out="$work/mnt/c" >/dev/null 2>&1
    mount -o remount,ro "$work/mnt" 2>/dev/null || skip "cannot remount read-only"
    expect_exit 2 20 "$atomfuzz" fuzz --target=fast --seconds=2 --resume \
      --out="$work/mnt/c"
    grep -q "Read-only file system" "$work/err" || fail "$(cat "$work/err")"
    ;;
  external_worker_kill)
    # A worker killed from outside is no crash of the target: its case runs
    # again in a fresh process, cleanly, and nothing is filed.
    "$atomfuzz" fuzz --target=fast --seconds=6 --jobs=2 --seed=3 \
      --out="$work/c" >"$work/log" 2>&1 &
    campaign=$!
    for _ in $(seq 400); do
      worker=$(pgrep -P "$campaign" | head -1)
      [[ -n $worker ]] && break
      sleep 0.05
    done
    [[ -n $worker ]] || fail "no worker started"
    sleep 1
    kill -9 "$worker"
    wait "$campaign"
    grep -q "an unreproducible crash, not filed" "$work/log" ||
      fail "$(grep -i worker "$work/log" | head -3)"
    "$atomfuzz" triage "$work/c" >"$work/triage"
    grep -q "^0 buckets" "$work/triage" || fail "$(cat "$work/triage")"
    ;;
  symlinked_campaign_dir)
    # Links inside a campaign directory are followed by nobody: no secret
    # reaches an error message, no file is written outside --out.
    "$atomfuzz" fuzz --target=fast --inject=rmw-not-atomic --runs=300 \
      --seed=3 --quiet --out="$work/c" >/dev/null 2>&1
    id=$(ls "$work/c/findings" | head -1)
    [[ -n $id ]] || fail "the campaign found nothing to link"
    echo "secret-token-4711" >"$work/secret"
    rm "$work/c/findings/$id/reduced.case"
    ln -s "$work/secret" "$work/c/findings/$id/reduced.case"
    mkdir "$work/elsewhere"
    mv "$work/c/corpus" "$work/c/corpus.old"
    ln -s "$work/elsewhere" "$work/c/corpus"
    expect_exit 2 20 "$atomfuzz" triage "$work/c"
    grep -q "a symbolic link inside the campaign directory" "$work/err" ||
      fail "$(cat "$work/err")"
    expect_exit 2 20 "$atomfuzz" fuzz --target=fast --inject=rmw-not-atomic \
      --runs=100 --resume --out="$work/c"
    ! grep -q "secret-token" "$work/err" "$work/out" || fail "the secret leaked"
    [[ -z $(ls "$work/elsewhere") ]] || fail "files written outside --out"
    # What an error message quotes from a file in it is escaped: no
    # terminal control sequence reaches the user's screen.
    rm -rf "$work/c"
    "$atomfuzz" fuzz --target=fast --runs=10 --seed=3 --quiet \
      --out="$work/c" >/dev/null 2>&1
    printf 'seed 3\ntarget fast\n\033]0;owned\007 7\n' >"$work/c/campaign.state"
    expect_exit 2 20 "$atomfuzz" fuzz --target=fast --runs=10 --resume \
      --out="$work/c"
    grep -q "campaign.state:3: expected" "$work/err" || fail "$(cat -v "$work/err")"
    ! grep -q $'\033' "$work/err" || fail "an escape reached the message: $(cat -v "$work/err")"
    ;;
  *)
    fail "no such scenario"
    ;;
esac
echo "ok $scenario"
