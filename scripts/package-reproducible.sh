#!/usr/bin/env bash
# Checks that the Debian packages are reproducible: builds them twice from this checkout with
# scripts/package.sh, in two build folders of different names and depths, the second without
# ccache (so an object cached from another folder cannot hide a path in the output), and compares
# the two .deb and the two dbgsym packages byte for byte. When they differ it says where: the ar
# members, then the files of control and data that differ (tar listings, then each file with cmp,
# an ELF's notes and sections by readelf). Exit 0 when both pairs are identical.
# Usage: scripts/package-reproducible.sh [--cached]
#   --cached: the second build in build-pkg-repro-b (the same depth as the first, so ccache serves
#   every object: a few minutes less) with ccache on: checks the folder's name, the time stamps and
#   the packaging, not the compiler or the folder's depth.
# Takes about twice scripts/package.sh (decision 0028, docs/packaging.md "Reproducible").
set -euo pipefail
cd "$(dirname "$0")/.."
first=build-pkg-repro-a
second=build-pkg-repro-b/second/folder
cached=${1:-}
[ "$cached" = "--cached" ] && second=build-pkg-repro-b
rm -rf build-pkg-repro-a build-pkg-repro-b
# One commit time for both builds, even if a commit lands while they run.
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}
export SOURCE_DATE_EPOCH

echo "package-reproducible: first build in $first"
bash scripts/package.sh "$first" >/dev/null
echo "package-reproducible: second build in $second${cached:+ (ccache on)}"
if [ "$cached" = "--cached" ]; then
  bash scripts/package.sh "$second" >/dev/null
else
  CCACHE_DISABLE=1 bash scripts/package.sh "$second" >/dev/null
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Where two packages differ, as far as dpkg-deb, tar, cmp and readelf can say.
explain() {
  local a=$1 b=$2 side
  for side in a b; do
    mkdir -p "$work/$side/ar"
    local pkg=$a
    [ "$side" = b ] && pkg=$b
    (cd "$work/$side/ar" && ar x "$pkg")
  done
  echo "  ar members: $(ar t "$a" | tr '\n' ' ')"
  [ "$(ar tv "$a")" = "$(ar tv "$b")" ] || {
    echo "  ar listings differ:"
    diff <(ar tv "$a") <(ar tv "$b") | sed 's/^/    /' || true
  }
  local member
  for member in $(ar t "$a"); do
    cmp -s "$work/a/ar/$member" "$work/b/ar/$member" && continue
    echo "  member $member differs"
    case $member in
      *.tar.*)
        diff <(tar -tvf "$work/a/ar/$member" --full-time) <(tar -tvf "$work/b/ar/$member" --full-time) |
          sed 's/^/    listing: /' | head -40 || true
        mkdir -p "$work/a/$member.x" "$work/b/$member.x"
        tar -xf "$work/a/ar/$member" -C "$work/a/$member.x"
        tar -xf "$work/b/ar/$member" -C "$work/b/$member.x"
        local f
        while IFS= read -r f; do
          [ -f "$work/a/$member.x/$f" ] && [ ! -L "$work/a/$member.x/$f" ] || continue
          cmp -s "$work/a/$member.x/$f" "$work/b/$member.x/$f" && continue
          echo "    file $f differs: $(cmp -l "$work/a/$member.x/$f" "$work/b/$member.x/$f" 2>/dev/null | wc -l) bytes"
          if file "$work/a/$member.x/$f" | grep -q ELF; then
            diff <(readelf -n "$work/a/$member.x/$f") <(readelf -n "$work/b/$member.x/$f") |
              sed 's/^/      notes: /' | head -10 || true
            diff <(readelf -SW "$work/a/$member.x/$f" | awk '{print $2, $6}') \
              <(readelf -SW "$work/b/$member.x/$f" | awk '{print $2, $6}') |
              sed 's/^/      sections: /' | head -20 || true
            diff <(strings -a "$work/a/$member.x/$f" | grep -E '/(work|home|tmp|build)' | sort -u) \
              <(strings -a "$work/b/$member.x/$f" | grep -E '/(work|home|tmp|build)' | sort -u) |
              sed 's/^/      paths: /' | head -10 || true
          else
            diff "$work/a/$member.x/$f" "$work/b/$member.x/$f" | sed 's/^/      /' | head -10 || true
          fi
        done < <(cd "$work/a/$member.x" && find . -type f | sort)
        ;;
    esac
  done
  rm -rf "$work/a" "$work/b"
}

failed=0
for pattern in 'atoms-edge_*.deb' 'atoms-edge-dbgsym_*.ddeb'; do
  # shellcheck disable=SC2086
  a=$(realpath $first/$pattern)
  # shellcheck disable=SC2086
  b=$(realpath $second/$pattern)
  if cmp -s "$a" "$b"; then
    echo "package-reproducible: identical: $(basename "$a") ($(stat -c %s "$a") bytes, sha256 $(sha256sum "$a" | cut -c1-16)...)"
  else
    echo "package-reproducible: DIFFERENT: $a and $b"
    explain "$a" "$b"
    failed=1
  fi
done
if [ "$failed" = 0 ]; then
  rm -rf build-pkg-repro-a build-pkg-repro-b
fi
exit "$failed"
