#!/usr/bin/env bash
# Installs what the tests need, builds and runs every test (docs/testing.md):
#   1. the format check (clang-format);
#   2. the shipped binary built as the demo builds it (gcc, warnings as errors), and the demo run
#      to its end as a smoke test;
#   3. the one sanitizer build (clang, ASan+UBSan, libFuzzer instrumentation, warnings as errors;
#      scripts/build-san.sh): every test once, the fuzz corpus replayed, the panel in Debian's
#      chromium (its npm packages installed from their lockfile first; screenshots left in
#      build-san/panel-screenshots/);
#   4. the Debian package (scripts/package.sh: a clean gcc build, cpack, contents checked, lintian),
#      then installed on a clean Debian 12 root made by debootstrap in the background from the
#      start (scripts/package-root.sh: install cycle, init, serve, verify, backup, purge);
#   5. the fuzz targets of that same build, each run briefly with a fixed seed (docs/fuzzing.md).
# Exits non-zero when any step fails. Prints the time each stage took.
set -euo pipefail
cd "$(dirname "$0")/.."
begin=$SECONDS
last=$SECONDS
stage() {
  echo "== $1 (previous stage $((SECONDS - last)) s, $((SECONDS - begin)) s in all)"
  last=$SECONDS
}

stage "dependencies"
bash scripts/deps.sh

# A clean Debian 12 root for the package test, made while the builds run (mostly downloads).
bash scripts/package-root.sh prepare build-root >build-root.prepare.log 2>&1 &
root_pid=$!
trap 'kill "$root_pid" 2>/dev/null || true' EXIT

stage "browser test packages (npm ci from tests/panel/browser/package-lock.json)"
bash tests/panel/browser/install.sh

stage "format check"
bash scripts/format.sh --check

stage "shipped binary (gcc)"
ATOMS_BUILD_TARGETS=atoms-edge bash scripts/build.sh build
stage "demo smoke run"
build/daemon/atoms-edge demo </dev/null >build/demo.log 2>&1 || {
  tail -20 build/demo.log
  echo "the demo failed (build/demo.log)" >&2
  exit 1
}
tail -1 build/demo.log

stage "Debian package (cpack, lintian)"
bash scripts/package.sh build-pkg
stage "the package on a clean Debian 12 root (install cycle, init, serve, verify, backup)"
wait "$root_pid" || {
  cat build-root.prepare.log
  echo "could not prepare the clean Debian root (build-root.prepare.log)" >&2
  exit 1
}
bash scripts/package-root.sh run build-root build-pkg/atoms-edge_*_amd64.deb
# Never remove a root that still has the host's /dev or /proc mounted in it.
if grep -q " $PWD/build-root/" /proc/mounts; then
  echo "build-root still has mounts; left in place" >&2
  exit 1
fi
rm -rf build-root

stage "sanitizer build (clang)"
bash scripts/build-san.sh build-san
stage "tests (sanitizer build)"
lsan_supp="$PWD/tests/lsan.supp"
# abort_on_error=0: a sanitizer report ends the process with exit code 1 at once. An abort would be
# caught by Boost.Test's signal handler, which goes on with the next test in a broken process
# (that hung CI for 15 minutes once).
(cd build-san && ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
  LSAN_OPTIONS="suppressions=$lsan_supp:print_suppressions=0" \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --output-on-failure -j2 --timeout 1800)

echo "panel screenshots: build-san/panel-screenshots/"

stage "fuzz"
# A fixed seed: the same code explores the same inputs, so a failure here can be reproduced and
# a run does not fail for a finding that an earlier run of the same commit missed.
ATOMS_FUZZ_BUILD_DIR=build-san ATOMS_FUZZ_SEED=1 bash scripts/fuzz.sh 15

stage "done"
