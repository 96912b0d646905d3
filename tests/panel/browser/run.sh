#!/usr/bin/env bash
# The panel's browser test as ctest runs it (tests/panel/CMakeLists.txt): the npm packages from the
# lockfile (install.sh), then run.mjs with the arguments given.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bash "$here/install.sh"
exec node "$here/run.mjs" "$@"
