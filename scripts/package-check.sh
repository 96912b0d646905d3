#!/usr/bin/env bash
# Checks a built atoms-edge .deb without installing it: the binary is there and stripped, the
# unit, the conffiles, the docs lintian wants, the maintainer scripts present and `sh -n` clean,
# and the dependencies dpkg-shlibdeps found. One line per failure; exit 1 if any.
# Usage: scripts/package-check.sh PACKAGE.deb
set -euo pipefail
deb=$1
failures=0
fail() {
  echo "package-check: $*" >&2
  failures=$((failures + 1))
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

contents=$(dpkg-deb --contents "$deb")
for path in ./usr/bin/atoms-edge ./lib/systemd/system/atoms-edge.service \
  ./etc/atoms-edge/atoms-edge.conf ./etc/atoms-edge/labor/us.json \
  ./usr/share/doc/atoms-edge/copyright ./usr/share/doc/atoms-edge/changelog.Debian.gz \
  ./usr/share/man/man1/atoms-edge.1.gz; do
  grep -q " $path\$" <<<"$contents" || fail "$path is not in the package"
done
grep -q ' ./var/lib/atoms-edge' <<<"$contents" && fail "the package ships the state directory"

dpkg-deb --extract "$deb" "$work/root"
dpkg-deb --control "$deb" "$work/control"
file "$work/root/usr/bin/atoms-edge" | grep -q ', stripped' || fail "usr/bin/atoms-edge is not stripped"
"$work/root/usr/bin/atoms-edge" version >/dev/null || fail "the packaged binary does not run"

grep -qx /etc/atoms-edge/atoms-edge.conf "$work/control/conffiles" ||
  fail "atoms-edge.conf is not a conffile"
grep -qx /etc/atoms-edge/labor/us.json "$work/control/conffiles" ||
  fail "the labor tables are not conffiles"
for script in postinst prerm postrm; do
  [ -x "$work/control/$script" ] || fail "maintainer script $script is missing or not executable"
  sh -n "$work/control/$script" || fail "maintainer script $script does not parse (sh -n)"
done
grep -q 'deb-systemd-helper enable' "$work/control/postinst" || fail "postinst does not enable the unit"
grep -v echo "$work/control/postinst" | grep -Eq 'systemctl [^d]*start|deb-systemd-invoke start' &&
  fail "postinst starts the service"

info=$(dpkg-deb --info "$deb")
for dep in adduser libsqlcipher libsodium libpoco; do
  grep -q "^ Depends:.*$dep" <<<"$info" || fail "Depends does not name $dep"
done

if [ "$failures" -ne 0 ]; then
  echo "package-check: $failures problem(s) in $deb" >&2
  exit 1
fi
echo "package-check: $deb ok"
