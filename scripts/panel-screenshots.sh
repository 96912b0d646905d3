#!/usr/bin/env bash
# Refreshes the panel's committed screenshots (docs/panel/*.png) from the browser test
# (tests/panel/browser/, docs/testing.md): builds atoms-edge and the fake Twilio as shipped (gcc,
# build/), runs the test with its screenshots going to a fresh folder, and replaces docs/panel's
# set with them (phone 390x844 and desktop 1440x900 of the sign-in page and of every page).
# The test must pass: a failing run changes nothing. Review the images before committing them.
set -euo pipefail
cd "$(dirname "$0")/.."
ATOMS_BUILD_TARGETS="atoms-edge fake_twilio_server" bash scripts/build.sh build
shots=$(mktemp -d)
trap 'rm -rf "$shots"' EXIT
bash tests/panel/browser/run.sh --edge build/daemon/atoms-edge \
  --fake-twilio build/tests/tools/fake_twilio_server --screenshots "$shots"
rm -f docs/panel/*.png
cp "$shots"/*.png docs/panel/
echo "panel-screenshots: $(ls "$shots" | wc -l) images in docs/panel/; look at them, then commit"
