#!/usr/bin/env bash
# Idempotent set-up of a fresh Debian 12/13 machine for ExportLens:
# the Debian packages it builds against, and a project-local venv holding the
# pinned torch 2.13.0 wheel of this machine's flavour, CPU or CUDA (LibTorch
# for the build, Python torch as the test oracle). Safe to run again: it only
# installs what is missing.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TORCH_VERSION=2.13.0
# The real-architecture corpus (tests/oracle/corpus_models.py) builds its
# language and vision models with HuggingFace transformers (pure Python).
TRANSFORMERS_VERSION=5.23.0
# pt2e quantization (torch.ao's moved to torchao): the numerics suite's quantized program and the corpus' pt2e programs.
TORCHAO_VERSION=0.18.0
# The corpus' second vision zoo (tests/oracle/corpus_models.py, library "timm").
TIMM_VERSION=1.0.31
TORCHVISION_VERSION=0.28.0

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

# The venv of this machine's LibTorch flavour (packaging/flavour.sh):
# cpu  -> .venv       torch==2.13.0+cpu. Where a plain `pip install torch` is
#         served the CUDA build (the registry's default Linux wheel), the +cpu
#         wheel comes from PyTorch's own index, download.pytorch.org/whl/cpu
#         (EXPORTLENS_CPU_INDEX); a local wheel folder holding it is used first.
# cuda -> .venv-cuda  torch==2.13.0 from the registry (CUDA 13 and its CUDA
#         runtime packages, about 3.5 GB): the machine's pip configuration is
#         bypassed, since a local wheel folder may hold the +cpu build under
#         the same version number.
. "$repo/packaging/flavour.sh"
venv="$flavour_venv"
want_cuda=$([ "$flavour" = cuda ] && echo True || echo False)
if ! "$venv/bin/python" -c "import numpy, torch, sys; sys.exit(torch.__version__.split('+')[0] != '$TORCH_VERSION' or (torch.version.cuda is not None) != $want_cuda)" 2>/dev/null; then
  echo "setup: creating $venv with torch==$TORCH_VERSION ($flavour)"
  rm -rf "$venv"
  python3 -m venv "$venv"
  pip=("$venv/bin/pip" install -q --disable-pip-version-check)
  quiet() { grep -v -i "warning" || true; }
  if [ "$flavour" = cuda ]; then
    PIP_FIND_LINKS= PIP_CONFIG_FILE=/dev/null "${pip[@]}" --index-url "${EXPORTLENS_TORCH_INDEX:-https://pypi.org/simple}" \
      "torch==$TORCH_VERSION" numpy 2>&1 | quiet
  elif ! "${pip[@]}" "torch==$TORCH_VERSION+cpu" numpy 2>&1 | quiet || ! "$venv/bin/python" -c "import torch" 2>/dev/null; then
    "${pip[@]}" --extra-index-url "${EXPORTLENS_CPU_INDEX:-https://download.pytorch.org/whl/cpu}" \
      "torch==$TORCH_VERSION+cpu" numpy 2>&1 | quiet
  fi
  "$venv/bin/python" -c "import torch; print('setup: torch', torch.__version__, '(CUDA', str(torch.version.cuda) + ')')"
fi

if ! "$venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('torchao') != '$TORCHAO_VERSION')" 2>/dev/null; then
  echo "setup: installing torchao==$TORCHAO_VERSION into $venv (pt2e quantization for the numerics suite and the corpus)"
  # No dependencies: torchao needs nothing but the torch already there.
  "$venv/bin/pip" install -q --disable-pip-version-check --no-deps "torchao==$TORCHAO_VERSION" 2>&1 \
    | grep -v -i "warning" || true
fi

if ! "$venv/bin/python" -c "import transformers, sys; sys.exit(transformers.__version__ != '$TRANSFORMERS_VERSION')" 2>/dev/null; then
  echo "setup: installing transformers==$TRANSFORMERS_VERSION into $venv (the test corpus' models)"
  "$venv/bin/pip" install -q --disable-pip-version-check "transformers==$TRANSFORMERS_VERSION" 2>&1 \
    | grep -v -i "warning" || true
fi

# The vision venv: timm needs torchvision, and the registry's torchvision is
# built for the registry's torch (CUDA 13), not for the +cpu wheel, beside
# which it fails to import. The corpus' timm models are exported there (on the
# CPU; the same torch 2.13, so the same programs), nothing is built against it.
# On the CUDA flavour it is the flavour venv itself (packaging/flavour.sh).
if ! "$vision_venv/bin/python" -c "import timm, torchvision, torch, sys; sys.exit(timm.__version__ != '$TIMM_VERSION' or torch.__version__.split('+')[0] != '$TORCH_VERSION')" 2>/dev/null; then
  echo "setup: installing torch==$TORCH_VERSION (CUDA build), torchvision==$TORCHVISION_VERSION and timm==$TIMM_VERSION into $vision_venv (the corpus' timm models; about 5 GB)"
  [ -x "$vision_venv/bin/python" ] || python3 -m venv "$vision_venv"
  PIP_FIND_LINKS= PIP_CONFIG_FILE=/dev/null "$vision_venv/bin/pip" install -q --disable-pip-version-check \
    --index-url "${EXPORTLENS_TORCH_INDEX:-https://pypi.org/simple}" "torch==$TORCH_VERSION" \
    "torchvision==$TORCHVISION_VERSION" "timm==$TIMM_VERSION" numpy 2>&1 | grep -v -i "warning" || true
  "$vision_venv/bin/python" -c "import timm, torchvision; print('setup: timm', timm.__version__, 'torchvision', torchvision.__version__)"
fi
