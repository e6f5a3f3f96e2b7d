#!/usr/bin/env bash
# Exported reproducers build with the command `atomfuzz export` prints and
# say what the judge says: FAIL for each finding of corpus/findings/ in each
# format relevant to its target (each failing word with the judge's words,
# each failed run of the judge's kind), PASS for corpus/seed cases the judge
# allows on vulkan. Usage:
#   export_reproducers_test.sh ATOMFUZZ REPO [sample|all]
# `sample` (CI) runs a few of each; `all` every finding and seed case, and
# the Wine ones (Xvfb, a Wine prefix: slow).
set -uo pipefail
atomfuzz=$1
repo=$2
mode=${3:-sample}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export MESA_SHADER_CACHE_DISABLE=true VKD3D_SHADER_DEBUG=none VKD3D_DEBUG=none
# Wine makes its prefix on first use (about 20 s), then reuses it.
export WINEPREFIX=${WINEPREFIX:-$HOME/.cache/atomfuzz/export-wine-prefix}
failures=0 passed=0

fail() {
  echo "FAIL $*"
  failures=$((failures + 1))
}

# The judge's kind for the reason a reproducer's FAIL line gives.
kind_of() {
  case $1 in
    *"died of signal"* | *crashed*) echo crashed ;;
    *"did not finish"*) echo "timed out" ;;
    *"validation layer"*) echo invalid-code ;;
    *"returned 0x"* | *"returned -"*) echo rejected ;;
    *"values are not allowed"*) echo wrong ;;
    *) echo "?" ;;
  esac
}

# repro FORMAT CASE ON WANT [EXPORT_FLAG]: export, build, run; WANT is PASS
# or FAIL.
repro() {
  local format=$1 case=$2 on=$3 want=$4 flag=${5:-}
  local name dir build run rc verdict
  name="$(basename "$case" .case) $format on $on $flag"
  dir=$work/$(basename "$case" .case)-$format-$on$flag
  mkdir -p "$dir"
  if ! "$atomfuzz" export --format="$format" --on="$on" $flag "$case" \
      -o "$dir/repro.c" 2>"$dir/export.err"; then
    fail "$name: export: $(head -c 300 "$dir/export.err")"
    return
  fi
  build=$(sed -n 's/^build: //p' "$dir/export.err")
  run=$(sed -n 's/^run: *//p' "$dir/export.err")
  if ! (cd "$dir" && bash -c "$build") >"$dir/build.log" 2>&1; then
    fail "$name: '$build' failed: $(head -c 600 "$dir/build.log")"
    return
  fi
  (cd "$dir" && timeout 300 bash -c "$run") >"$dir/run.raw" 2>&1
  rc=$?
  tr -d '\r' <"$dir/run.raw" >"$dir/run.log"  # Wine's console ends lines in CR LF
  verdict=$(grep -E '^(PASS|FAIL|ERROR)' "$dir/run.log" | tail -1)
  if [[ $want == PASS ]]; then
    [[ $rc == 0 && $verdict == PASS* ]] ||
      fail "$name: wanted PASS, got exit $rc: ${verdict:-$(tail -3 "$dir/run.log")}"
    [[ $rc == 0 && $verdict == PASS* ]] && passed=$((passed + 1))
    return
  fi
  # A crash that takes the whole Windows process down prints no FAIL line
  # (docs/export.md): its exit status says it.
  if [[ -z $verdict && $rc -gt 128 ]]; then verdict="FAIL: crashed (exit $rc)"; fi
  if [[ $rc == 0 || $verdict != FAIL* ]]; then
    fail "$name: wanted FAIL, got exit $rc: ${verdict:-$(tail -3 "$dir/run.log")}"
    return
  fi
  # The same words as atomfuzz's judge on that target, judging as the
  # reproducer does: final words only (--blind).
  "$atomfuzz" judge --blind --target="$on" "$case" >"$dir/judge.txt" 2>&1
  local kind
  kind=$(kind_of "$verdict")
  if [[ $kind == wrong ]]; then
    while IFS= read -r line; do
      # The canary (docs/export.md): the judge saw the shader not run.
      if [[ $line == *"expected 0x600dcafe"* ]]; then
        grep -q "divergence" "$dir/judge.txt" ||
          fail "$name: the canary failed but the judge saw no divergence"
        continue
      fi
      grep -qF -- "$line" "$dir/judge.txt" ||
        fail "$name: '$line' is not in the judge's words: $(head -c 400 "$dir/judge.txt")"
    done < <(grep -E '^u[0-9]+(\[[0-9]+\]| counter): expected' "$dir/run.log")
  elif ! grep -q -- "$kind" "$dir/judge.txt"; then
    fail "$name: '$verdict' ($kind) but the judge says: $(head -c 400 "$dir/judge.txt")"
    return
  fi
  passed=$((passed + 1))
  echo "ok   $name: $verdict"
}

findings=$repo/corpus/findings
# finding, the target it is a finding of, the formats that reproduce it.
# (nvidia-image-array-layer-wraps-16-bits needs NVIDIA's driver: vulkan-c
# with REPRO_DEVICE=NVIDIA on such a machine.)
table=(
  "vkd3d-structured-index-wrap vulkan vulkan-c d3d12-c"
  "vkd3d-umul-dropped vulkan vulkan-c d3d12-c"
  "vkd3d-lavapipe-tgsm-oob-crash vulkan vulkan-c d3d12-c"
  "vkd3d-switch-default-falls-through-refused vulkan d3d12-c"
  "vkd3d-switch-dead-code-invalid-spirv vulkan vulkan-c"
  "lavapipe-movc-negative-zero vulkan vulkan-c d3d12-c"
  "lavapipe-loop-after-early-break-runs-once vulkan vulkan-c d3d12-c"
  "lavapipe-untaken-loop-spends-loop-budget vulkan vulkan-c d3d12-c"
  "lavapipe-ssbo-negative-index-wraps vulkan-ssbo vulkan-c"
  "vkd3d-ssbo-typed-load-extracts-from-scalar vulkan-ssbo vulkan-c"
  "vkd3d-switch-second-break-aborts vulkan d3d12-c"
  "vkd3d-ftou-ftoi-no-saturation vulkan vulkan-c d3d12-c"
  "vkd3d-breakc-in-switch-refused vulkan d3d12-c"
  "vkd3d-sync-uglobal-divergent-is-execution-barrier vulkan vulkan-c d3d12-c"
  "wined3d-gl-signed-minmax-on-uint-dropped wine-d3d11-gl d3d11-c"
  "wined3d-gl-unsigned-minmax-on-sint-dropped wine-d3d11-gl d3d11-c"
  "wined3d-gl-umul-two-destinations-dropped wine-d3d11-gl d3d11-c"
  "wined3d-gl-constant-tgsm-oob-skips-dispatch wine-d3d11-gl d3d11-c"
  "wined3d-gl-null-dst0-invalid-glsl wine-d3d11-gl d3d11-c"
  "wined3d-gl-tgsm-negative-address-crashes wine-d3d11-gl d3d11-c"
  "wine-structured-index-wraps wine-d3d11-gl d3d11-c"
  "wine-vk-counter-disconnected wine-d3d11-vk d3d11-c"
)
sample_findings="vkd3d-umul-dropped vkd3d-lavapipe-tgsm-oob-crash
  vkd3d-switch-default-falls-through-refused vkd3d-switch-dead-code-invalid-spirv
  lavapipe-ssbo-negative-index-wraps"
for row in "${table[@]}"; do
  read -r name on formats <<<"$row"
  if [[ $mode == sample && " $(echo $sample_findings) " != *" $name "* ]]; then continue; fi
  for format in $formats; do
    if [[ $format == d3d11-c && $mode != all ]]; then continue; fi
    repro "$format" "$findings/$name.case" "$on" FAIL
  done
done

# Seed cases the judge allows on vulkan PASS as vulkan-c and d3d12-c.
sample_seeds="counter-alloc-uav-structured all-atomics-typed-buffer
  all-atomics-tex2darray imm_atomic_exch-tgsm e01-iadd-wrap-uav-raw"
for case in "$repo"/corpus/seed/*.case; do
  name=$(basename "$case" .case)
  if [[ $mode == sample && " $(echo $sample_seeds) " != *" $name "* ]]; then continue; fi
  if [[ $name == ps-* ]]; then
    echo "skip $name: a draw (export writes json only for ps_5_0)"
    continue
  fi
  if ! "$atomfuzz" judge --quiet --target=vulkan "$case" >/dev/null 2>&1; then
    echo "skip $name: not allowed on vulkan (a finding of its own)"
    continue
  fi
  repro vulkan-c "$case" vulkan PASS
  repro d3d12-c "$case" vulkan PASS
  # With each returned value logged and checked where the spec defines it.
  repro vulkan-c "$case" vulkan PASS --returns
done

echo "export reproducers: $passed as expected, $failures not"
[[ $failures == 0 ]]
