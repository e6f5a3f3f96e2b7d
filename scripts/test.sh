#!/usr/bin/env bash
# Installs what is missing, builds with warnings as errors, and runs every
# test: under ASan/UBSan the parser fuzzer for ATOMFUZZ_PARSER_FUZZ_SECONDS
# (default 30), then the DXBC decoder fuzzer for ATOMFUZZ_DXBC_FUZZ_SECONDS
# (30), beside atomics_fuzzer for ATOMFUZZ_ATOMICS_FUZZ_SECONDS (60), seeded
# from corpus/, atomics_ext_fuzzer for ATOMFUZZ_TARGET_FUZZ_SECONDS (20) and
# atomics_vulkan_fuzzer over corpus/seed/ once; then AFL++ on atomics_afl with the custom
# mutator for ATOMFUZZ_AFL_FUZZ_SECONDS (30); then the GoogleTest suites.
# ctest's summary line closes the output. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
export ATOMFUZZ_WERROR=ON
parser_seconds=${ATOMFUZZ_PARSER_FUZZ_SECONDS:-30}
dxbc_seconds=${ATOMFUZZ_DXBC_FUZZ_SECONDS:-30}
atomics_seconds=${ATOMFUZZ_ATOMICS_FUZZ_SECONDS:-60}
afl_seconds=${ATOMFUZZ_AFL_FUZZ_SECONDS:-30}

cmake --preset libfuzzer -DATOMFUZZ_PARSER_FUZZ_SECONDS="$parser_seconds" \
  -DATOMFUZZ_DXBC_FUZZ_SECONDS="$dxbc_seconds" \
  -DATOMFUZZ_ATOMICS_FUZZ_SECONDS="$atomics_seconds"
cmake --build --preset libfuzzer
ctest --preset libfuzzer

cmake --preset afl -DATOMFUZZ_AFL_FUZZ_SECONDS="$afl_seconds"
cmake --build --preset afl
ctest --preset afl

cmake --preset default
cmake --build --preset default
ctest --preset default
