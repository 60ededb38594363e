#!/usr/bin/env bash
# stage_and_check.sh BUILD_DIR STAGE_DIR FIXTURE_DIR: installs BUILD_DIR into
# STAGE_DIR/usr, checks the installed tree, and removes it again (it holds a
# copy of LibTorch, about 450 MB).
set -euo pipefail
build=$1 stage=$2 fixture=$3
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
rm -rf "$stage"
trap 'rm -rf "$stage"' EXIT
cmake --install "$build" --prefix "$stage/usr" > "$build/install_check.log"
# The executable finds LibTorch beside itself, never in the build or the venv.
runpath=$(readelf -d "$stage/usr/bin/exportlens" | sed -n 's/.*(\(RUNPATH\|RPATH\)).*\[\(.*\)\]/\2/p')
[ "$runpath" = '$ORIGIN/../lib/exportlens' ] \
  || { echo "stage_and_check.sh: installed exportlens has RUNPATH '$runpath'" >&2; exit 1; }
"$repo/packaging/check_installed.sh" "$stage" "$fixture"
