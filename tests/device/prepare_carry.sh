#!/usr/bin/env bash
# Fills tests/device/carry/ (git-ignored) with the headers the device machine
# lacks: nlohmann_json (header-only) and zlib's two headers, copied from this
# machine's packages (nlohmann-json3-dev, zlib1g-dev). The device run carries
# the folder with the tree; gpu_check.sh points CMake at it.
set -euo pipefail
carry="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/carry"
rm -rf "$carry"
mkdir -p "$carry/zlib"
cp -r /usr/include/nlohmann "$carry/"
cp /usr/include/zlib.h /usr/include/zconf.h "$carry/zlib/"
du -sh "$carry"
