#!/usr/bin/env bash
# Copies the panel's front-end libraries from npm into daemon/panel/web/vendor/, where they are
# committed and embedded in the binary (docs/decisions/0020-panel-front-end.md). The C++ build
# never runs npm; this script does, when the pinned versions in daemon/panel/web/package.json
# change. `--check` installs the locked versions and fails when the committed copies differ.
# Needs node and npm (Debian's nodejs and npm; scripts/deps.sh).
set -euo pipefail
cd "$(dirname "$0")/../daemon/panel/web"
mode=${1:-}
npm ci --ignore-scripts --no-audit --no-fund >/dev/null
out=vendor
if [ "$mode" = --check ]; then
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"
# Browsers load these as ES modules by relative path: no import map (it would be inline script,
# which the panel's Content-Security-Policy forbids), so the bare "preact" import is rewritten and
# the source-map comments (maps are not embedded) are dropped.
strip() { sed -e 's#//\# sourceMappingURL=.*$##' "$1"; }
strip node_modules/preact/dist/preact.module.js >"$out/preact.module.js"
strip node_modules/preact/hooks/dist/hooks.module.js |
  sed -e 's#from"preact"#from"./preact.module.js"#g' -e "s#from'preact'#from'./preact.module.js'#g" \
    >"$out/hooks.module.js"
strip node_modules/htm/dist/htm.module.js >"$out/htm.module.js"
cp node_modules/preact/LICENSE "$out/preact.LICENSE"
cp node_modules/htm/LICENSE "$out/htm.LICENSE"
if [ "$mode" = --check ]; then
  diff -r "$out" vendor >/dev/null || {
    echo "panel-vendor: daemon/panel/web/vendor/ differs from package-lock.json; run scripts/panel-vendor.sh" >&2
    exit 1
  }
fi
