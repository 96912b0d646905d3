#!/usr/bin/env bash
# The Debian package on a clean Debian 12 root (docs/packaging.md, "In a clean Debian root"):
#
#   scripts/package-root.sh prepare ROOT       debootstrap a minimal bookworm into ROOT (the host's
#                                              Debian mirror; about 200 MB, a few minutes)
#   scripts/package-root.sh run ROOT PACKAGE   in a chroot of ROOT: install PACKAGE with apt (its
#                                              dependencies from the mirror), run the install/remove/
#                                              purge cycle (scripts/package-cycle.sh), install again,
#                                              then as the service user: init, a site import (the
#                                              demo site), serve until ready, verify while it
#                                              serves, a backup, stop; then purge
#
# ROOT is thrown away by the caller; `run` leaves nothing mounted, on success or not. Run as root.
# CI runs both (scripts/test.sh: `prepare` in the background from the start, `run` after the
# package is built), so the maintainer scripts and the installed binary are tested on every
# commit without touching the machine CI runs on (decision 0023 and its follow-up).
set -euo pipefail
cd "$(dirname "$0")/.."

die() {
  echo "package-root: $*" >&2
  exit 1
}
[ "$(id -u)" -eq 0 ] || die "run as root (debootstrap and chroot need it)"

mirror() {
  # The first URIs line of the host's Debian sources (deb822 or one-line form), else Debian's.
  local uri
  uri=$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null |
    head -1)
  [ -n "$uri" ] || uri=$(awk '$1 == "deb" { print $2; exit }' /etc/apt/sources.list 2>/dev/null)
  echo "${uri:-http://deb.debian.org/debian}"
}

prepare() {
  local root=$1
  command -v debootstrap >/dev/null || die "debootstrap is not installed (scripts/deps.sh)"
  if grep -q " $(realpath -m "$root")/" /proc/mounts; then die "$root has mounts; unmount them first"; fi
  rm -rf "$root"
  debootstrap --variant=minbase bookworm "$root" "$(mirror)" >"$root.debootstrap.log" 2>&1 ||
    {
      tail -20 "$root.debootstrap.log" >&2
      die "debootstrap failed ($root.debootstrap.log)"
    }
  # The host's sources (updates and security too: the package was built against them) and its
  # apt settings for a snapshot mirror, so the chroot resolves what the host resolved.
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    cp /etc/apt/sources.list.d/debian.sources "$root/etc/apt/sources.list.d/"
    : >"$root/etc/apt/sources.list"
  fi
  printf 'Acquire::Check-Valid-Until "false";\n' >"$root/etc/apt/apt.conf.d/99package-root"
  # Nothing installed in the chroot may start a service.
  printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
  chmod 0755 "$root/usr/sbin/policy-rc.d"
  echo "package-root: $root prepared"
}

run() {
  local root=$1 deb=$2
  [ -x "$root/usr/bin/apt-get" ] || die "$root is not a prepared root (run: $0 prepare $root)"
  [ -f "$deb" ] || die "no package $deb"
  mounted=()
  cleanup() {
    local m
    for m in "${mounted[@]}"; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; done
  }
  trap cleanup EXIT
  mount -t proc proc "$root/proc" && mounted+=("$root/proc")
  mount --bind /dev "$root/dev" && mounted+=("$root/dev")
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  cp "$deb" "$root/tmp/atoms-edge.deb"
  cp scripts/package-cycle.sh "$root/tmp/package-cycle.sh"
  cp etc/sites/demo-site.json "$root/tmp/site.json"
  in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "$@"; }

  echo "package-root: installing the dependencies from $(mirror)"
  in_root apt-get update -qq >/dev/null || die "apt-get update failed in the chroot"
  in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    /tmp/atoms-edge.deb procps >"$root.install.log" 2>&1 || {
    tail -20 "$root.install.log" >&2
    die "apt-get install of the package failed in the chroot"
  }
  # The cycle wants a machine without the package: remove it, keep what apt pulled in (and
  # procps, which the cycle uses to look for a started service).
  in_root dpkg -P atoms-edge >/dev/null
  in_root rm -rf /var/lib/atoms-edge
  in_root deluser --system atoms-edge >/dev/null 2>&1 || true
  in_root delgroup --system atoms-edge >/dev/null 2>&1 || true
  in_root bash /tmp/package-cycle.sh /tmp/atoms-edge.deb || die "the install cycle failed"

  in_root dpkg -i /tmp/atoms-edge.deb >/dev/null || die "install after the cycle failed"
  as_service() { in_root runuser -u atoms-edge -- "$@"; }
  as_service atoms-edge init --site-id bistro-sf --state-dir /var/lib/atoms-edge \
    >"$root/tmp/init.log" 2>&1 || {
    cat "$root/tmp/init.log" >&2
    die "atoms-edge init failed"
  }
  as_service atoms-edge site import /tmp/site.json --state-dir /var/lib/atoms-edge \
    >"$root/tmp/import.log" 2>&1 || {
    cat "$root/tmp/import.log" >&2
    die "atoms-edge site import failed"
  }
  # Started as one chain of execs (chroot, env, setpriv, atoms-edge): $! is the service itself,
  # so the SIGTERM below reaches it as systemd's would.
  chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
    setpriv --reuid=atoms-edge --regid=atoms-edge --init-groups \
    atoms-edge serve --config /etc/atoms-edge/atoms-edge.conf >"$root/tmp/serve.log" 2>&1 &
  local serve=$!
  local deadline=$((SECONDS + 60))
  until grep -qw ready "$root/tmp/serve.log"; do
    if ! kill -0 "$serve" 2>/dev/null; then
      cat "$root/tmp/serve.log" >&2
      die "atoms-edge serve exited before it was ready"
    fi
    [ "$SECONDS" -lt "$deadline" ] || {
      kill "$serve"
      cat "$root/tmp/serve.log" >&2
      die "atoms-edge serve was not ready within 60 s"
    }
    sleep 0.2 # between looks at the log, up to the deadline
  done
  as_service atoms-edge verify --state-dir /var/lib/atoms-edge >"$root/tmp/verify.log" 2>&1 || {
    cat "$root/tmp/verify.log" >&2
    kill "$serve"
    die "atoms-edge verify failed while serve ran"
  }
  rm -f "$root"/tmp/ci.backup*
  as_service atoms-edge backup --state-dir /var/lib/atoms-edge --to /tmp/ci.backup \
    >"$root/tmp/backup.log" 2>&1 || {
    cat "$root/tmp/backup.log" >&2
    kill "$serve"
    die "atoms-edge backup failed while serve ran"
  }
  kill -TERM "$serve"
  local status=0
  wait "$serve" || status=$?
  [ "$status" -eq 0 ] || {
    cat "$root/tmp/serve.log" >&2
    die "atoms-edge serve exited $status on SIGTERM"
  }
  in_root env ATOMS_EDGE_PURGE_STATE=1 dpkg -P atoms-edge >/dev/null || die "final purge failed"
  echo "package-root: on a clean Debian 12 root: installed, cycled, init, serve, verify" \
    "($(head -1 "$root/tmp/verify.log")), backup, stopped, purged"
}

case "${1:-}" in
  prepare) prepare "${2:?ROOT}" ;;
  run) run "${2:?ROOT}" "${3:?PACKAGE}" ;;
  *) die "usage: $0 prepare ROOT | run ROOT PACKAGE" ;;
esac
