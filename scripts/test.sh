#!/usr/bin/env bash
# Installs what the tests need, builds, and runs every test: the normal build, a short bounded run
# of every fuzz target (docs/fuzzing.md), then the AddressSanitizer + UndefinedBehaviorSanitizer
# build. Exits non-zero when any test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh

bash scripts/build.sh build
(cd build && ctest --output-on-failure -j2 --timeout 900)

# A fixed seed: the same code explores the same inputs, so a failure here can be reproduced and
# a run does not fail for a finding that an earlier run of the same commit missed.
ATOMS_FUZZ_SEED=1 bash scripts/fuzz.sh 20

bash scripts/build.sh build-asan -DATOMS_SANITIZE=ON
lsan_supp="$PWD/tests/lsan.supp"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
  LSAN_OPTIONS="suppressions=$lsan_supp:print_suppressions=0" \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --output-on-failure -j2 --timeout 1800)
