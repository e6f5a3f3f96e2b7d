#!/usr/bin/env bash
# Installs, from Debian packages only, whatever atomfuzz needs and this machine lacks.
# Idempotent: when everything is present it touches nothing (no apt-get update).
set -euo pipefail

packages=(
  clang clang-format cmake ninja-build
  libabsl-dev libgtest-dev libgmock-dev libbenchmark-dev
  afl++ libclang-rt-dev
  libvkd3d-dev libvulkan-dev mesa-vulkan-drivers spirv-tools
  # Exported vulkan-c reproducers run spirv-val through the validation layer
  vulkan-validationlayers
  # Tests validate the --json output against docs/schema (python3-jsonschema)
  python3-jsonschema
  # The Wine targets: Wine's D3D11 under Xvfb, and mingw-w64 to build the
  # Windows program they run.
  wine wine64 libwine gcc-mingw-w64-x86-64 xvfb xauth
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
