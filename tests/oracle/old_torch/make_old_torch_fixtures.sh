#!/usr/bin/env bash
# Exports the seed models with torch releases older than the oracle's and
# writes the small outputs as committed fixtures:
#   tests/fixtures/old_torch/<release>/<fixture>/{program.pt2,print.txt,inputs.pt,outputs.pt,meta.json}
#
# Usage: tests/oracle/old_torch/make_old_torch_fixtures.sh [RELEASE ...]   (default 2.5 ... 2.12)
#
# Each release gets a temporary venv (PyPI's Linux wheels are CUDA builds:
# about 1 GB of torch and 2-3 GB of CUDA packages), which is deleted before
# the next one, so the disk holds one at a time. Run once; commit the outputs.
# The oracle scripts run from a copy under $WORK (default /tmp/exportlens-old-torch),
# so the "# File:" comments in the programs name that copy, not a checkout.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
WORK=${WORK:-/tmp/exportlens-old-torch}
PYTHON=${PYTHON:-python3}
RELEASES=("$@")
[ ${#RELEASES[@]} -gt 0 ] || RELEASES=(2.5 2.6 2.7 2.8 2.9 2.10 2.11 2.12)

mkdir -p "$WORK"
rm -rf "$WORK/tests"
mkdir -p "$WORK/tests/oracle/old_torch"
cp "$ROOT"/tests/oracle/*.py "$WORK/tests/oracle/"
cp "$HERE/export_release.py" "$WORK/tests/oracle/old_torch/"

for rel in "${RELEASES[@]}"; do
  venv="$WORK/venv-$rel"
  out="$ROOT/tests/fixtures/old_torch/$rel"
  echo "== torch $rel" >&2
  rm -rf "$venv"
  "$PYTHON" -m venv "$venv"
  # The local CPU wheel folder and config are bypassed: these come from PyPI.
  PIP_FIND_LINKS= PIP_CONFIG_FILE=/dev/null "$venv/bin/pip" install --quiet --no-cache-dir "torch==$rel.*" numpy
  rm -rf "$out"
  mkdir -p "$out"
  (cd "$WORK/tests/oracle" && "$venv/bin/python" old_torch/export_release.py --out "$out")
  rm -rf "$venv"
done
