#!/usr/bin/env bash
# The sanitizer build: clang with AddressSanitizer and UndefinedBehaviorSanitizer, our libraries
# instrumented for libFuzzer, the tests and one libFuzzer binary per fuzz target. One build serves
# the sanitized test run and the fuzz runs (scripts/test.sh, scripts/fuzz.sh).
# Usage: scripts/build-san.sh [BUILD_DIR (default build-san)]; ATOMS_BUILD_TARGETS as in build.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
CC=clang CXX=clang++ exec bash scripts/build.sh "${1:-build-san}" -DATOMS_FUZZ=ON
