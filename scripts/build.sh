#!/usr/bin/env bash
# Configures and builds atoms-edge.
# Usage: scripts/build.sh [BUILD_DIR [extra cmake args...]]
# Environment: ATOMS_BUILD_TARGETS (space-separated ninja targets; default: everything), CC/CXX.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
# Paths relative to the checkout in ccache's keys, so a fresh clone elsewhere reuses the cache.
export CCACHE_BASEDIR="$PWD"
# Debug info would otherwise tie each object to its build folder and defeat the cache there.
export CCACHE_NOHASHDIR=1
shift || true
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
# shellcheck disable=SC2086
ninja -C "$dir" -j2 ${ATOMS_BUILD_TARGETS:-}
