#!/usr/bin/env bash
# Installs the Debian packages atoms-edge needs to build, test and run. Idempotent; run as root.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config git clang libclang-rt-14-dev lld
  libsqlcipher-dev sqlcipher libsodium-dev libssl-dev libpoco-dev libboost-test-dev
  libpaho-mqttpp-dev libpaho-mqtt-dev mosquitto mosquitto-clients libhowardhinnant-date-dev
  procps openssl clang-format systemd
  # The cloud ingest's PostgreSQL store (libpqxx) and the server its tests start (docs/sync-ingest.md).
  libpqxx-dev postgresql
  # The roster solver's exact steps and the benchmark's peer (docs/scheduling.md): CBC.
  coinor-libcbc-dev
  # The panel's browser test and benchmarks (docs/testing.md): Debian's chromium, driven headless
  # by puppeteer-core; a font so its screenshots look the same on every machine; wrk for load.
  chromium fonts-dejavu-core wrk
  # The Debian package (scripts/package.sh): dpkg-shlibdeps, file, lintian.
  dpkg-dev file lintian
  # The package on a clean Debian 12 root (scripts/package-root.sh).
  debootstrap
)
# Node.js and npm, for the panel's front-end libraries (scripts/panel-vendor.sh): Debian's, unless
# the machine has an npm already (NodeSource's nodejs package carries its own npm, which Debian's
# npm package cannot be installed beside).
if ! command -v npm >/dev/null 2>&1; then
  packages+=(nodejs npm)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "deps: missing packages (${missing[*]}); run this script as root to install them" >&2
  exit 1
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
