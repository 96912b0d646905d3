#!/usr/bin/env bash
# clang-format (the root .clang-format) over every C++ file git tracks.
# Usage: scripts/format.sh          formats the files in place
#        scripts/format.sh --check  changes nothing; names each file that is not formatted, exit 1
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.h' '*.cpp')
if [[ ${1:-} == --check ]]; then
  if ! out=$(clang-format --dry-run --Werror "${files[@]}" 2>&1); then
    grep -o '^[^:]*:[0-9]*:[0-9]*: error' <<<"$out" | cut -d: -f1 | sort -u | sed 's/^/not formatted: /'
    echo "format: run scripts/format.sh to format them" >&2
    exit 1
  fi
  echo "format: ${#files[@]} files formatted"
else
  clang-format -i "${files[@]}"
fi
