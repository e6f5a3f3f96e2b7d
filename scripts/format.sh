#!/usr/bin/env bash
# Formats every C and C++ file of the repository with its .clang-format
# (Google, 80 columns). --check changes nothing and exits 1 if a file is not
# formatted (the 'format' test).
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.cc' '*.h' '*.c' 2>/dev/null ||
                     find . -path ./build\* -prune -o \( -name '*.cc' -o -name '*.h' -o -name '*.c' \) -print)
if [[ ${1:-} == --check ]]; then
  clang-format --dry-run --Werror "${files[@]}"
else
  clang-format -i "${files[@]}"
fi
