#!/usr/bin/env bash
# The main job: install what is missing, build, then short differential fuzz
# campaigns: the fast executor judged by the reference oracle, the oracle
# against itself under random schedules (which must never diverge), and
# every real translator this machine can run (vkd3d-shader to SPIR-V on a
# Vulkan device, in both of its buffer lowerings, with Debian's vkd3d 1.2 and
# with the 1.6 inside Wine; Wine's Direct3D 11 on its GL and Vulkan
# renderers), then pixel-stage campaigns on fast and the vulkan targets
# (discard as kill and as demote). It ends with one triage
# table of all their findings. Findings, corpus and stats.json land in
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
targets=(fast oracle)
# A real translator runs where its stack does: one seed case tells (exit 0
# or 1: it ran, whatever the verdict; 2 or 3: it could not).
probe=corpus/seed/all-atomics-tex1d.case
runs() {
  local rc=0
  # $1: the target and its flags, split on purpose.
  # shellcheck disable=SC2086
  build/atomfuzz run --target=$1 "$probe" > /dev/null 2>&1 || rc=$?
  ((rc <= 1))
}
if runs vulkan; then
  targets+=(vulkan vulkan-ssbo)
else
  echo "== no Vulkan device: the vulkan targets are skipped =="
fi
# Each entry: a target and its own flags ("vulkan --vkd3d=wine": vkd3d 1.6).
if runs vulkan && runs "vulkan --vkd3d=wine"; then
  targets+=("vulkan --vkd3d=wine")
fi
for wine in wine-d3d11-gl wine-d3d11-vk; do
  if runs "$wine"; then
    targets+=("$wine")
  else
    echo "== $wine cannot run here (Wine, Xvfb or the runner missing): skipped =="
  fi
done
# The pixel stage (docs/pixel-stage.md): its own campaigns, on fast, the
# vulkan targets' two discard modes and the Wine targets (a D3D11 draw).
pixel_targets=(fast)
for target in "${targets[@]}"; do
  [[ $target == vulkan ]] && pixel_targets+=(vulkan vulkan-demote)
  [[ $target == wine-* ]] && pixel_targets+=("$target")
done
compute_seeds=(corpus/seed/[!p]*.case corpus/spec/e*.case)
status=0
dirs=()
# $1: the target and its flags; $2: the out suffix; $3: the policy; the
# rest: seed files and directories.
campaign() {
  local target=$1 suffix=$2 policy=$3
  shift 3
  read -r -a flags <<< "$target"
  name=${target// --/-}  # "vulkan --vkd3d=wine" -> vulkan-vkd3d=wine
  out=atomfuzz-out/${name//=/-}$suffix
  resume=()
  [[ -f $out/campaign.state ]] && resume=(--resume)
  echo "== atomfuzz fuzz --target=$target --policy=$policy (${seconds}s, $jobs jobs) =="
  build/atomfuzz fuzz --target="${flags[0]}" "${flags[@]:1}" \
    --policy="$policy" "$@" \
    --seconds="$seconds" --jobs="$jobs" --out="$out" "${resume[@]}" \
    --known=corpus/known-findings.txt || status=$?
  dirs+=("$out")
}
for target in "${targets[@]}"; do
  if [[ $target == wine-* ]]; then
    campaign "$target" "" default "${compute_seeds[@]}"
  else
    campaign "$target" "" default corpus/seed corpus/spec
  fi
done
for target in "${pixel_targets[@]}"; do
  campaign "$target" -pixel pixel corpus/seed/ps-*.case corpus/spec/p*.case
done
echo "== atomfuzz triage --known=corpus/known-findings.txt ${dirs[*]} =="
build/atomfuzz triage --known=corpus/known-findings.txt "${dirs[@]}"
exit "$status"
