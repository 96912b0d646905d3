#!/usr/bin/env bash
# The newcomer's first command: install what is needed, build, and run the demo site.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
bash scripts/build.sh build
exec build/daemon/atoms-edge demo "$@"
