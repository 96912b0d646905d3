#!/usr/bin/env bash
# Builds the box image (image/mkosi/, docs/install.md "A whole box: the image") from the package
# scripts/package.sh made: a GPT disk image with a read-only squashfs root, the state partition,
# UEFI boot. Needs root, Debian 12's mkosi (apt-get install mkosi) and loop devices; CI does not
# run it (it tests the package on a clean Debian root instead: scripts/package-root.sh).
# Usage: scripts/image.sh [PACKAGE.deb] [OUTPUT-DIR]   (defaults: build-pkg/atoms-edge_*_amd64.deb,
# build-image)
set -euo pipefail
cd "$(dirname "$0")/.."
deb=${1:-$(ls build-pkg/atoms-edge_*_amd64.deb 2>/dev/null | head -1)}
out=${2:-build-image}
[ -f "$deb" ] || {
  echo "image: no package; run bash scripts/package.sh first" >&2
  exit 1
}
command -v mkosi >/dev/null || {
  echo "image: mkosi is not installed (apt-get install mkosi)" >&2
  exit 1
}
outAbs=$(realpath -m "$out")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r image/mkosi/. "$work/"
mkdir -p "$work/mkosi.extra/tmp" "$out"
cp "$deb" "$work/mkosi.extra/tmp/atoms-edge.deb"
(cd "$work" && mkosi --force --output-dir "$outAbs" build)
ls -l "$out"
