#!/usr/bin/env bash
# The sanitizer build: clang with AddressSanitizer and UndefinedBehaviorSanitizer, our libraries
# instrumented for libFuzzer, the tests and one libFuzzer binary per fuzz target. One build serves
# the sanitized test run and the fuzz runs (scripts/test.sh, scripts/fuzz.sh). -O1 and line tables
# only, as sanitizer builds usually are: reports keep file and line, the build takes less time.
# Usage: scripts/build-san.sh [BUILD_DIR (default build-san)]; ATOMS_BUILD_TARGETS as in build.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
flags="-O1 -gline-tables-only -DNDEBUG"
CC=clang CXX=clang++ exec bash scripts/build.sh "${1:-build-san}" -DATOMS_FUZZ=ON \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="$flags" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$flags"
