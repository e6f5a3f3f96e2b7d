#!/usr/bin/env bash
# OSS-Fuzz / ClusterFuzzLite build script: builds the libFuzzer-style
# harnesses with the compilers, flags and fuzzing engine the environment
# names, and puts each fuzzer with its dictionary, seed corpus
# (<fuzzer>_seed_corpus.zip) and .options file into $OUT:
#
#   atomics_fuzzer          atomfuzz's own fast target (injectable bugs)
#   atomics_vulkan_fuzzer   DXBC -> vkd3d-shader -> SPIR-V -> Vulkan
#   atomics_ext_fuzzer      the C-ABI executor $OUT/atomics_ext_target.so
#   parser_fuzzer           the case-file and assembly parsers
#   dxbc_fuzzer             the DXBC container decoder
#
# The fuzzers are self-contained: abseil and vkd3d-shader are linked from
# their static archives (ATOMFUZZ_STATIC_DEPS) and the Vulkan loader is
# opened at run time, so that a runner image without Debian's libraries
# starts them; the last step checks this with ldd and fails otherwise.
#
#   CC CXX CFLAGS CXXFLAGS   compilers and flags (sanitizers, coverage)
#   LIB_FUZZING_ENGINE       engine link flag or library (-fsanitize=fuzzer)
#   OUT                      where the fuzzers go (required)
#   WORK                     scratch space for the build (default: a temp dir)
#   SRC                      unused: the tree is the one holding this script
#   ATOMFUZZ_EXT_TARGET      a translator's executor (include/atomfuzz/
#                            target.h) to ship as atomics_ext_target.so;
#                            default: the example, examples/simple_executor
#   ATOMFUZZ_KNOWN_FINDINGS  the known bugs atomics_vulkan_fuzzer passes over,
#                            as $OUT/known-findings.txt (default: atomfuzz's,
#                            corpus/known-findings.txt)
#   ATOMFUZZ_FUZZERS         which of the five to build (default: all)
#   ATOMFUZZ_CMAKE_ARGS      more cmake arguments, e.g.
#                            -DVKD3D_SHADER_ARCHIVE=/src/vkd3d/libvkd3d-shader.a
#                            to link a vkd3d-shader built with the fuzzing
#                            flags (docs/oss-fuzz.md)
#
# Locally:
#   CC=clang CXX=clang++ CFLAGS="-fsanitize=address,fuzzer-no-link" \
#   CXXFLAGS="-fsanitize=address,fuzzer-no-link" \
#   LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT=/tmp/out fuzz/engines/oss-fuzz/build.sh
# MemorySanitizer builds are not supported: abseil comes uninstrumented from
# Debian.
set -euo pipefail

root=$(cd "$(dirname "$0")/../../.." && pwd)
: "${OUT:?set OUT to the output directory}"
CC=${CC:-clang}
CXX=${CXX:-clang++}
CFLAGS=${CFLAGS:-}
CXXFLAGS=${CXXFLAGS:-}
LIB_FUZZING_ENGINE=${LIB_FUZZING_ENGINE:--fsanitize=fuzzer}
work=${WORK:-$(mktemp -d)}/atomfuzz-oss-fuzz
read -r -a extra_cmake_args <<< "${ATOMFUZZ_CMAKE_ARGS:-}"
mkdir -p "$OUT" "$work"

read -r -a fuzzers <<< "${ATOMFUZZ_FUZZERS:-atomics_fuzzer atomics_vulkan_fuzzer atomics_ext_fuzzer parser_fuzzer dxbc_fuzzer}"

generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi
cmake -S "$root" -B "$work/build" "${generator[@]}" \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_CXX_FLAGS="$CXXFLAGS" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DATOMFUZZ_BUILD_FUZZERS=ON -DATOMFUZZ_BUILD_TESTS=OFF \
  -DATOMFUZZ_BUILD_CLI=OFF -DATOMFUZZ_FUZZING_ENGINE="$LIB_FUZZING_ENGINE" \
  -DATOMFUZZ_STATIC_DEPS=ON "${extra_cmake_args[@]}"
cmake --build "$work/build" -j"$(nproc)" \
  --target "${fuzzers[@]}" parser_dict dxbc_seeds simple_executor

# Seeds: every corpus case, flattened (seed/ and spec/ share names). The
# vulkan harness's leave out corpus/findings/, whose reproducers crash
# vkd3d-shader 1.2 and lavapipe in its process (known bugs, findings.md).
seeds="$work/seeds"
vulkan_seeds="$work/vulkan-seeds"
rm -rf "$seeds" "$vulkan_seeds" && mkdir -p "$seeds" "$vulkan_seeds"
for dir in "$root"/corpus/*/; do
  name=$(basename "$dir")
  for f in "$dir"*.case; do
    cp "$f" "$seeds/$name-$(basename "$f")"
    if [[ $name != findings ]]; then
      cp "$f" "$vulkan_seeds/$name-$(basename "$f")"
    fi
  done
done
# The DXBC decoder's: each case's shader as a container.
dxbc_seeds="$work/dxbc-seeds"
rm -rf "$dxbc_seeds"
"$work/build/fuzz/dxbc_seeds" "$root/corpus" "$dxbc_seeds"

zip_dir() {  # zip_dir DIR GLOB ZIP
  rm -f "$3"
  (cd "$1" && cmake -E tar cf "$3" --format=zip -- $2)
}

# max_len: the largest corpus case is about 18 KiB of text.
declare -A max_len=([atomics_fuzzer]=32768 [atomics_vulkan_fuzzer]=32768
                    [atomics_ext_fuzzer]=32768 [parser_fuzzer]=8192
                    [dxbc_fuzzer]=16384)
for fuzzer in "${fuzzers[@]}"; do
  cp "$work/build/fuzz/$fuzzer" "$OUT/"
  if [[ $fuzzer == dxbc_fuzzer ]]; then
    zip_dir "$dxbc_seeds" '*.dxbc' "$OUT/${fuzzer}_seed_corpus.zip"
  elif [[ $fuzzer == atomics_vulkan_fuzzer ]]; then
    cp "$work/build/parser.dict" "$OUT/$fuzzer.dict"
    zip_dir "$vulkan_seeds" '*.case' "$OUT/${fuzzer}_seed_corpus.zip"
  else
    cp "$work/build/parser.dict" "$OUT/$fuzzer.dict"
    zip_dir "$seeds" '*.case' "$OUT/${fuzzer}_seed_corpus.zip"
  fi
  printf '[libfuzzer]\nmax_len = %s\n' "${max_len[$fuzzer]}" > "$OUT/$fuzzer.options"
done
cp "${ATOMFUZZ_EXT_TARGET:-$work/build/examples/libsimple_executor.so}" \
  "$OUT/atomics_ext_target.so"
# The buckets atomics_vulkan_fuzzer passes over (known=$ORIGIN/...).
cp "${ATOMFUZZ_KNOWN_FINDINGS:-$root/corpus/known-findings.txt}" \
  "$OUT/known-findings.txt"

# Self-contained: nothing but the C and C++ runtimes may be loaded from the
# build machine (the vulkan harness opens libvulkan.so.1 itself, at run time).
allowed='^(linux-vdso|ld-linux-x86-64|libc|libm|libpthread|libdl|librt|libstdc\+\+|libc\+\+|libc\+\+abi|libgcc_s)\.so'
status=0
for fuzzer in "${fuzzers[@]}"; do
  while read -r lib _; do
    lib=$(basename "$lib")
    if [[ ! $lib =~ $allowed ]]; then
      echo "build.sh: $fuzzer needs $lib, which a runner image lacks" >&2
      status=1
    fi
  done < <(ldd "$OUT/$fuzzer" | sed 's/^[[:space:]]*//')
done
if (( status != 0 )); then exit 1; fi
echo "build.sh: $(ls "$OUT" | tr '\n' ' ')"
