#!/usr/bin/env bash
# The newcomer's first command: install what is needed, build the binary (only it: no tests), and
# run the demo site.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
ATOMS_BUILD_TARGETS=atoms-edge bash scripts/build.sh build
exec build/daemon/atoms-edge demo "$@"
