#!/usr/bin/env bash
# Checks an installed ExportLens as a user meets it:
#   packaging/check_installed.sh [--chroot] ROOT FIXTURE_DIR
#
# ROOT is the file-system root it was installed into with prefix /usr: a
# clean Debian root the .deb went into (--chroot: the checks run inside it,
# so only what the package and its Depends brought is there), or a staging
# folder `cmake --install --prefix ROOT/usr` filled (the executable runs from
# there and must find its LibTorch through its RPATH, not the build's).
# FIXTURE_DIR holds an oracle fixture: program.pt2 and torch's print.txt.
# It checks that `exportlens --version` names the LibTorch in
# /usr/lib/exportlens, that `exportlens print` equals torch's print(ep), that
# `render` draws without a display, that the capture package is installed
# beside it (and runs, where the root has python3), and that the desktop entry, icons,
# AppStream metainfo and the *.pt2 MIME type are where the desktop looks.
set -euo pipefail
in_chroot=0
if [ "${1:-}" = --chroot ]; then in_chroot=1; shift; fi
[ $# -eq 2 ] || { echo "usage: check_installed.sh [--chroot] ROOT FIXTURE_DIR" >&2; exit 2; }
root=$(cd "$1" && pwd)
fixture=$2
for f in program.pt2 print.txt; do
  [ -f "$fixture/$f" ] || { echo "check_installed.sh: $fixture/$f: no such fixture file" >&2; exit 2; }
done

# Where the checks' files live, as the installed program sees the path.
work_rel=/tmp/exportlens-check
work="$root$work_rel"
rm -rf "$work"
mkdir -p "$work"
cp "$fixture/program.pt2" "$work/fixture.pt2"
if [ $in_chroot = 1 ]; then
  seen="$work_rel"
  on_host=$root  # a path the installed program names, seen from here
  installed() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }
else
  seen="$work"
  on_host=
  # A bare environment: nothing from the build (venv, LD_LIBRARY_PATH) helps it
  # start; a sanitized build's options pass (LibTorch's exit-time allocations).
  installed() {
    local exe=$1; shift
    env -i PATH=/usr/bin:/bin HOME="$work" LANG=C.UTF-8 \
      ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} ${UBSAN_OPTIONS:+UBSAN_OPTIONS="$UBSAN_OPTIONS"} \
      "$root/usr/bin/$exe" "$@"
  }
fi

echo "== exportlens --version"
version=$(installed exportlens --version)
echo "$version"
grep -q "^exportlens " <<<"$version"
libtorch=$(sed -n 's/^LibTorch 2\.13\.[0-9]* .*from \(.*\/libtorch_cpu\.so\)$/\1/p' <<<"$version")
[ -n "$libtorch" ] && [ "$(realpath -m "$on_host$libtorch")" = "$(realpath "$root/usr/lib/exportlens/libtorch_cpu.so")" ] \
  || { echo "check_installed.sh: exportlens does not run on LibTorch 2.13 from /usr/lib/exportlens" >&2; exit 1; }

echo "== exportlens print equals torch's print(ep)"
installed exportlens print "$seen/fixture.pt2" > "$work/printed.txt"
# (as the suites compare them: trailing blank lines aside)
diff <(printf '%s\n' "$(cat "$fixture/print.txt")") <(printf '%s\n' "$(cat "$work/printed.txt")")

echo "== exportlens render without a display"
installed exportlens render "$seen/fixture.pt2" -o "$seen/fixture.png"
[ "$(head -c 8 "$work/fixture.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] \
  || { echo "check_installed.sh: render wrote no PNG" >&2; exit 1; }

echo "== the capture package beside the executable"
[ -f "$root/usr/share/exportlens/python/exportlens_capture/__main__.py" ] \
  || { echo "check_installed.sh: missing /usr/share/exportlens/python/exportlens_capture" >&2; exit 1; }
# The installed executable finds it: a script with no export call is run and
# leaves a capture of no attempts (exit 1), written by the package's own version.
if [ $in_chroot = 1 ]; then has_python3() { chroot "$root" sh -c 'command -v python3' >/dev/null 2>&1; }
else has_python3() { PATH=/usr/bin:/bin command -v python3 >/dev/null 2>&1; }; fi
if has_python3; then
  printf 'print("ran")\n' > "$work/no_export.py"
  set +e
  installed exportlens capture -o "$seen/capture" -- "$seen/no_export.py" > "$work/capture.out" 2>&1
  code=$?
  set -e
  [ $code = 1 ] && grep -q '^ran$' "$work/capture.out" && grep -q '"format": "exportlens-capture"' "$work/capture/manifest.json" \
    || { echo "check_installed.sh: exportlens capture did not run the package (exit $code)" >&2; cat "$work/capture.out" >&2; exit 1; }
fi

echo "== desktop integration"
for f in /usr/bin/exportlens \
         /usr/share/applications/org.exportlens.ExportLens.desktop \
         /usr/share/metainfo/org.exportlens.ExportLens.metainfo.xml \
         /usr/share/mime/packages/org.exportlens.ExportLens.xml \
         /usr/share/icons/hicolor/scalable/apps/org.exportlens.ExportLens.svg \
         /usr/share/icons/hicolor/48x48/apps/org.exportlens.ExportLens.png \
         /usr/share/icons/hicolor/256x256/apps/org.exportlens.ExportLens.png; do
  [ -f "$root$f" ] || { echo "check_installed.sh: missing $f" >&2; exit 1; }
done
grep -q "^Exec=exportlens %f" "$root/usr/share/applications/org.exportlens.ExportLens.desktop"
grep -q "MimeType=.*application/x-pytorch-pt2" "$root/usr/share/applications/org.exportlens.ExportLens.desktop"
grep -q 'glob pattern="\*.pt2"' "$root/usr/share/mime/packages/org.exportlens.ExportLens.xml"
rm -rf "$work"
echo "check_installed.sh: ok"
