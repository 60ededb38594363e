#!/usr/bin/env bash
# Installs the ExportLens .deb into a clean Debian root and runs it there:
#   packaging/test_package.sh [build/exportlens_*.deb]
#
# The root is a debootstrap --variant=minbase of this machine's Debian release
# (made once, then reused from $EXPORTLENS_DEB_BASE); each run copies it, so
# the package lands on a system that has only what its Depends bring. It
# checks that apt installs it with its dependencies, then runs
# packaging/check_installed.sh inside the root (--version names the LibTorch
# in /usr/lib/exportlens, print equals torch's print(ep) of a fixture, render
# draws without a display, the desktop files are in place), and that with
# shared-mime-info present *.pt2 is ExportLens's type. It prints the package's
# size and its installed size.
# Needs root (chroot), debootstrap and the network to the Debian mirror; it
# takes a few minutes the first time, so CI does not run it (CI's suite runs
# the same checks on a `cmake --install` staging tree: tests/install): run it
# after changing the install rules or the package's dependencies.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
deb=${1:-$(ls -t "$repo"/build/exportlens_*.deb 2>/dev/null | head -1)}
[ -f "$deb" ] || { echo "test_package.sh: no .deb (run packaging/build.sh package)" >&2; exit 2; }
fixture="$repo/build/fixtures/book_mlp"
[ -f "$fixture/program.pt2" ] || { echo "test_package.sh: no oracle fixtures in build/ (build first)" >&2; exit 2; }
suite=$(. /etc/os-release && echo "$VERSION_CODENAME")
mirror=${EXPORTLENS_DEB_MIRROR:-http://deb.debian.org/debian}
base=${EXPORTLENS_DEB_BASE:-/var/tmp/exportlens-deb-base-$suite}
run=${base}-run

command -v debootstrap >/dev/null || { echo "test_package.sh: needs debootstrap (apt-get install debootstrap)" >&2; exit 2; }
if [ ! -f "$base/.exportlens-base-ready" ]; then
  rm -rf "$base"
  debootstrap --variant=minbase "$suite" "$base" "$mirror" >/dev/null
  touch "$base/.exportlens-base-ready"
fi

cleanup() {
  umount "$run/proc" 2>/dev/null || true
  rm -rf "$run"
}
trap cleanup EXIT
rm -rf "$run"
cp -a "$base" "$run"
mount -t proc proc "$run/proc"
cp /etc/resolv.conf "$run/etc/resolv.conf"
cp "$deb" "$run/tmp/exportlens.deb"
in_root() { chroot "$run" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }
in_root apt-get update -qq
in_root apt-get install -y -qq --no-install-recommends /tmp/exportlens.deb >/dev/null

"$repo/packaging/check_installed.sh" --chroot "$run" "$fixture"

# With shared-mime-info present (as on any desktop), *.pt2 is our type.
in_root apt-get install -y -qq --no-install-recommends shared-mime-info >/dev/null
in_root update-mime-database /usr/share/mime
grep -q "application/x-pytorch-pt2" "$run/usr/share/mime/globs2"

size=$(du -k "$deb" | cut -f1)
installed=$(in_root dpkg-query -W -f='${Installed-Size}' exportlens)
echo "package $(basename "$deb"): $((size / 1024)) MiB, installed $((installed / 1024)) MiB"
echo "test_package.sh: ok"
