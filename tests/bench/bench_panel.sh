#!/usr/bin/env bash
# bench_panel (docs/benchmarks.md): the browser test's npm packages from their lockfile, then
# bench_panel.mjs with the arguments given.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bash "$here/../panel/browser/install.sh"
exec node "$here/bench_panel.mjs" "$@"
