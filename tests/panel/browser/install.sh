#!/usr/bin/env bash
# Installs the browser test's npm packages (puppeteer-core, axe-core) exactly as package-lock.json
# pins them (`npm ci`), unless node_modules/ already holds that lockfile's install. npm's cache
# (~/.npm) is preferred to the registry, so a machine that installed them once needs no network.
# Safe to run from two processes at once (a lock). Needs node and npm (scripts/deps.sh).
set -euo pipefail
cd "$(dirname "$0")"
exec 9>.install.lock
flock 9
stamp=node_modules/.package-lock.sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi
npm ci --ignore-scripts --no-audit --no-fund --prefer-offline >/dev/null
echo "$want" >"$stamp"
