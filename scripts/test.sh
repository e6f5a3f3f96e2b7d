#!/usr/bin/env bash
# Installs what is missing, builds with warnings as errors, and runs every
# test: the parser fuzzer under ASan/UBSan for ATOMFUZZ_PARSER_FUZZ_SECONDS
# (default 60) seeded from corpus/, then the GoogleTest suites. ctest's
# summary line closes the output. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
export ATOMFUZZ_WERROR=ON
seconds=${ATOMFUZZ_PARSER_FUZZ_SECONDS:-60}

cmake --preset libfuzzer -DATOMFUZZ_PARSER_FUZZ_SECONDS="$seconds"
cmake --build --preset libfuzzer
ctest --preset libfuzzer

cmake --preset default
cmake --build --preset default
ctest --preset default
