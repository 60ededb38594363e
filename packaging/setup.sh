#!/usr/bin/env bash
# Idempotent set-up of a fresh Debian 12/13 machine for ExportLens:
# the Debian packages it builds against, and a project-local venv holding the
# pinned torch 2.13.0 CPU wheel (LibTorch for the build, Python torch as the
# test oracle). Safe to run again: it only installs what is missing.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TORCH_VERSION=2.13.0
# The real-architecture corpus (tests/oracle/corpus_models.py) builds its
# language and vision models with HuggingFace transformers (pure Python).
TRANSFORMERS_VERSION=5.23.0

apt_packages=(
  g++ cmake ninja-build ccache pkg-config zlib1g-dev
  qt6-base-dev qt6-svg-dev libgl-dev
  libgraphviz-dev nlohmann-json3-dev
  python3 python3-venv
  xvfb xauth
  clang libclang-rt-dev  # the fuzz targets (libFuzzer), which CI runs after the tests
)

missing=()
for p in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing Debian packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

venv="$repo/.venv"
if ! "$venv/bin/python" -c "import numpy, torch, sys; sys.exit(torch.__version__.split('+')[0] != '$TORCH_VERSION')" 2>/dev/null; then
  echo "setup: creating $venv with torch==$TORCH_VERSION (CPU)"
  rm -rf "$venv"
  python3 -m venv "$venv"
  # The CPU wheel: an unpinned torch would pull a multi-GB CUDA build.
  "$venv/bin/pip" install -q --disable-pip-version-check "torch==$TORCH_VERSION" numpy 2>&1 \
    | grep -v -i "warning" || true
  "$venv/bin/python" -c "import torch; print('setup: torch', torch.__version__)"
fi

if ! "$venv/bin/python" -c "import transformers, sys; sys.exit(transformers.__version__ != '$TRANSFORMERS_VERSION')" 2>/dev/null; then
  echo "setup: installing transformers==$TRANSFORMERS_VERSION into $venv (the test corpus' models)"
  "$venv/bin/pip" install -q --disable-pip-version-check "transformers==$TRANSFORMERS_VERSION" 2>&1 \
    | grep -v -i "warning" || true
fi
