#!/usr/bin/env bash
# Installs, removes and purges a built atoms-edge .deb on THIS machine with dpkg, as root, and
# checks what the maintainer scripts promise (docs/packaging.md):
#   install: the system user exists, /var/lib/atoms-edge is 0700 and the user's, the unit is
#            enabled (its symlink; systemd need not run) and not started;
#   remove:  the binary is gone, the conffiles and the state directory stay;
#   purge:   the conffiles are gone, the state directory stays (with a file put in it);
#   purge with ATOMS_EDGE_PURGE_STATE=1 after a reinstall: the state directory is gone too.
# It leaves the machine as it found it: it refuses when atoms-edge is installed or its user or
# state directory exist, and removes the user it created at the end. Not run by CI (decision 0023).
# Usage: scripts/package-cycle.sh PACKAGE.deb
set -euo pipefail
deb=$1
state=/var/lib/atoms-edge
link=/etc/systemd/system/multi-user.target.wants/atoms-edge.service
failures=0
fail() {
  echo "package-cycle: $*" >&2
  failures=$((failures + 1))
}
if [ "$(id -u)" -ne 0 ]; then
  echo "package-cycle: run as root (it installs the package with dpkg)" >&2
  exit 2
fi
if dpkg-query -W -f='${Status}' atoms-edge 2>/dev/null | grep -q installed ||
  getent passwd atoms-edge >/dev/null || [ -e "$state" ]; then
  echo "package-cycle: atoms-edge (package, user or $state) is already on this machine; refusing" >&2
  exit 2
fi
cleanup() {
  dpkg -P atoms-edge >/dev/null 2>&1 || true
  rm -rf "$state"
  if getent passwd atoms-edge >/dev/null; then deluser --system atoms-edge >/dev/null 2>&1 || true; fi
  if getent group atoms-edge >/dev/null; then delgroup --system atoms-edge >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT

out=$(dpkg -i "$deb" 2>&1) || {
  echo "$out" >&2
  fail "dpkg -i failed"
  exit 1
}
grep -q 'atoms-edge init' <<<"$out" || fail "postinst does not say to run atoms-edge init"
getent passwd atoms-edge >/dev/null || fail "no system user atoms-edge after install"
id -nG atoms-edge | grep -qw dialout || fail "atoms-edge is not in dialout (the modem's group)"
[ "$(stat -c '%a %U %G' "$state" 2>/dev/null)" = "700 atoms-edge atoms-edge" ] ||
  fail "$state is not 0700 atoms-edge:atoms-edge after install"
[ "$(readlink "$link")" = /lib/systemd/system/atoms-edge.service ] ||
  fail "the unit is not enabled ($link)"
if [ -d /run/systemd/system ]; then
  systemctl is-active --quiet atoms-edge && fail "the service was started by the install"
fi
pgrep -f '^/usr/bin/atoms-edge' >/dev/null && fail "an atoms-edge process runs after the install"
/usr/bin/atoms-edge version >/dev/null || fail "the installed binary does not run"

echo keep >"$state/marker"
dpkg -r atoms-edge >/dev/null 2>&1 || fail "dpkg -r failed"
[ -e /usr/bin/atoms-edge ] && fail "/usr/bin/atoms-edge is still there after remove"
[ -f /etc/atoms-edge/atoms-edge.conf ] || fail "remove took the conffile (only purge may)"
[ -f "$state/marker" ] || fail "remove touched the state directory"

out=$(dpkg -P atoms-edge 2>&1) || fail "dpkg -P failed: $out"
[ -e /etc/atoms-edge ] && fail "/etc/atoms-edge is still there after purge"
[ -e "$link" ] && fail "the unit is still enabled after purge"
[ -f "$state/marker" ] || fail "purge removed the state directory without ATOMS_EDGE_PURGE_STATE=1"
grep -q 'kept the state directory' <<<"$out" || fail "purge does not say it kept the state directory"

dpkg -i "$deb" >/dev/null 2>&1 || fail "reinstall over a kept state directory failed"
[ -f "$state/marker" ] || fail "reinstall lost the kept state directory's content"
dpkg -r atoms-edge >/dev/null 2>&1 || fail "second dpkg -r failed"
ATOMS_EDGE_PURGE_STATE=1 dpkg -P atoms-edge >/dev/null 2>&1 || fail "dpkg -P with the flag failed"
[ -e "$state" ] && fail "purge with ATOMS_EDGE_PURGE_STATE=1 kept $state"

if [ "$failures" -ne 0 ]; then
  echo "package-cycle: $failures problem(s)" >&2
  exit 1
fi
echo "package-cycle: install, remove, purge ok"
