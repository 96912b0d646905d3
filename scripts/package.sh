#!/usr/bin/env bash
# Builds the Debian package from a clean build folder (gcc, RelWithDebInfo: the binary ships
# stripped, its symbols go into the -dbgsym package), checks its contents and runs lintian.
# Usage: scripts/package.sh [BUILD_DIR [--cycle]]   (default build-pkg; removed and made again)
# --cycle: then install, remove and purge it on this machine (root; scripts/package-cycle.sh).
# Prints the paths of the packages on the last line. docs/packaging.md.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-pkg}
rm -rf "$dir"
# Reproducible (decision 0028): every time stamp in the packages is the commit's time. cpack clamps
# the files' mtimes in both tar members to it, dpkg-deb (the dbgsym repack below) too, and gzip -n
# stores none. An outer SOURCE_DATE_EPOCH (a release build) wins.
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}
export SOURCE_DATE_EPOCH
# Only the binary: the install step must not build the tests (they are not packaged). The default
# compiler (cc/c++, gcc on Debian), as scripts/build.sh uses it for the shipped binary: the same
# compiler command lets ccache reuse that build's objects here.
# The update key the package's binary trusts (docs/update.md): the vendor's public key from
# $ATOMS_UPDATE_PUBLIC_KEY; without it the tests' key, fine for CI, never for a box.
update_key=()
if [ -n "${ATOMS_UPDATE_PUBLIC_KEY:-}" ]; then
  update_key=("-DATOMS_UPDATE_PUBLIC_KEY=$ATOMS_UPDATE_PUBLIC_KEY")
else
  echo "package: ATOMS_UPDATE_PUBLIC_KEY is not set: this package trusts the tests' update key (not for a box; docs/update.md)" >&2
fi
ATOMS_BUILD_TARGETS="atoms-edge atoms_deb_files" \
  bash scripts/build.sh "$dir" -DCMAKE_SKIP_INSTALL_ALL_DEPENDENCY=ON "${update_key[@]}"
if readelf -p .comment "$dir/daemon/atoms-edge" | grep -q 'clang version'; then
  echo "package: the binary was built with clang; the package is built with gcc (unset CC/CXX)" >&2
  exit 1
fi
# Reproducible (decision 0028): nothing in the binary, debug information included, may name this
# checkout or its build folder (the prefix maps in CMakeLists.txt); the build-id would then differ
# from one folder to another. The cheap half of scripts/package-reproducible.sh, run every time.
leaked=$(strings -a "$dir/daemon/atoms-edge" | grep -F "$PWD/" | sort -u || true)
if [ -n "$leaked" ]; then
  echo "package: the binary names the checkout $PWD (not reproducible: decision 0028):" >&2
  head -5 <<<"$leaked" >&2
  exit 1
fi
(cd "$dir" && cpack -G DEB >cpack.log 2>&1) || {
  cat "$dir/cpack.log"
  echo "package: cpack failed" >&2
  exit 1
}
deb=$(ls "$dir"/atoms-edge_*.deb)
dbg=$(ls "$dir"/atoms-edge-dbgsym_*.ddeb "$dir"/atoms-edge-dbgsym_*.deb 2>/dev/null || true)
bash scripts/package-check.sh "$deb"
# CPack 3.25 writes the dbgsym package's md5sums with paths of its build folder and gives it no
# copyright or changelog; repack it the way debhelper would (its doc folder a link to the main
# package's, which it depends on).
repack=$(mktemp -d)
dpkg-deb --raw-extract "$dbg" "$repack/p"
(cd "$repack/p" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum >DEBIAN/md5sums)
mkdir -p "$repack/p/usr/share/doc"
ln -s atoms-edge "$repack/p/usr/share/doc/atoms-edge-dbgsym"
dpkg-deb --root-owner-group --build "$repack/p" "$dbg" >/dev/null
rm -rf "$repack"
lintian --fail-on error,warning --tag-display-limit 0 "$dbg"
dpkg-deb --contents "$dbg" | grep -c ' ./usr/lib/debug/.build-id/' >/dev/null || {
  echo "package: the debug symbols package $dbg holds no ./usr/lib/debug/.build-id/" >&2
  exit 1
}
# Lintian: errors and warnings fail; the overrides it honours are in image/debian/
# (lintian-overrides, each with its reason).
lintian --fail-on error,warning --tag-display-limit 0 "$deb"
echo "package: $deb $dbg"
if [ "${2:-}" = "--cycle" ]; then
  bash scripts/package-cycle.sh "$deb"
fi
