#!/usr/bin/env bash
# OSS-Fuzz / ClusterFuzzLite build script: builds the libFuzzer-style
# harnesses (atomics_fuzzer, parser_fuzzer) with the compilers, flags and
# fuzzing engine the environment names, and puts each fuzzer with its
# dictionary, seed corpus (<fuzzer>_seed_corpus.zip, from corpus/) and
# .options file into $OUT.
#
#   CC CXX CFLAGS CXXFLAGS   compilers and flags (sanitizers, coverage)
#   LIB_FUZZING_ENGINE       engine link flag or library (-fsanitize=fuzzer)
#   OUT                      where the fuzzers go (required)
#   WORK                     scratch space for the build (default: a temp dir)
#   SRC                      unused: the tree is the one holding this script
#
# Locally:
#   CC=clang CXX=clang++ CFLAGS="-fsanitize=address,fuzzer-no-link" \
#   CXXFLAGS="-fsanitize=address,fuzzer-no-link" \
#   LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT=/tmp/out fuzz/engines/oss-fuzz/build.sh
# MemorySanitizer builds are not supported: abseil comes uninstrumented from
# Debian.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
: "${OUT:?set OUT to the output directory}"
CC=${CC:-clang}
CXX=${CXX:-clang++}
CFLAGS=${CFLAGS:-}
CXXFLAGS=${CXXFLAGS:-}
LIB_FUZZING_ENGINE=${LIB_FUZZING_ENGINE:--fsanitize=fuzzer}
work=${WORK:-$(mktemp -d)}/atomfuzz-oss-fuzz
mkdir -p "$OUT" "$work"

generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi
cmake -S "$root" -B "$work/build" "${generator[@]}" \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_CXX_FLAGS="$CXXFLAGS" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DATOMFUZZ_BUILD_FUZZERS=ON -DATOMFUZZ_BUILD_TESTS=OFF \
  -DATOMFUZZ_BUILD_CLI=OFF -DATOMFUZZ_FUZZING_ENGINE="$LIB_FUZZING_ENGINE"
cmake --build "$work/build" -j"$(nproc)" \
  --target atomics_fuzzer parser_fuzzer parser_dict

# Seeds: every corpus case, flattened (seed/ and spec/ share names).
seeds="$work/seeds"
rm -rf "$seeds" && mkdir -p "$seeds"
for dir in "$root"/corpus/*/; do
  name=$(basename "$dir")
  for f in "$dir"*.case; do cp "$f" "$seeds/$name-$(basename "$f")"; done
done

# max_len: the largest corpus case is about 18 KiB of text.
declare -A max_len=([atomics_fuzzer]=32768 [parser_fuzzer]=8192)
for fuzzer in atomics_fuzzer parser_fuzzer; do
  cp "$work/build/fuzz/$fuzzer" "$OUT/"
  cp "$work/build/parser.dict" "$OUT/$fuzzer.dict"
  rm -f "$OUT/${fuzzer}_seed_corpus.zip"
  (cd "$seeds" && cmake -E tar cf "$OUT/${fuzzer}_seed_corpus.zip" --format=zip -- *.case)
  printf '[libfuzzer]\nmax_len = %s\n' "${max_len[$fuzzer]}" > "$OUT/$fuzzer.options"
done
echo "build.sh: $(ls "$OUT" | tr '\n' ' ')"
