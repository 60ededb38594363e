#!/usr/bin/env bash
# One entry point for a fresh clone:
#   packaging/build.sh run   [FILE]      set up, build, open the GUI on FILE (.pt2 or model .so), by default on the built-in example
#   packaging/build.sh test             set up, build, run the whole test suite
#   packaging/build.sh build            set up and build only
# Set-up (packaging/setup.sh) is idempotent; the build is incremental (Ninja + ccache).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="${EXPORTLENS_BUILD_DIR:-$repo/build}"
mode="${1:-build}"
shift || true

"$repo/packaging/setup.sh"

jobs=$(nproc)
# ccache hits across clones in other folders (CI builds a fresh clone).
export CCACHE_BASEDIR="$repo" CCACHE_NOHASHDIR=true
cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="${EXPORTLENS_BUILD_TYPE:-Release}" >/dev/null
cmake --build "$build" -j "$jobs"

case "$mode" in
  build) ;;
  test)
    export QT_QPA_PLATFORM=offscreen
    ctest --test-dir "$build" --output-on-failure -j "$jobs"
    ;;
  run)
    app="$build/app/exportlens"
    [ $# -gt 0 ] || set -- --example
    if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] || [ -n "${QT_QPA_PLATFORM:-}" ]; then
      exec "$app" "$@"
    else
      echo "build.sh: no display found; opening under xvfb-run" >&2
      exec xvfb-run -a "$app" "$@"
    fi
    ;;
  *)
    echo "usage: packaging/build.sh run [FILE.pt2] | test | build" >&2
    exit 2
    ;;
esac
