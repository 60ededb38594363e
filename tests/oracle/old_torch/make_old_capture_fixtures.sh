#!/usr/bin/env bash
# Runs the capture package (resources/python/exportlens_capture) under torch
# releases older than the oracle's, on scripts of the capture corpus
# (tests/capture/scripts), and commits what it recorded as fixtures for the
# C++ reader of capture folders:
#   tests/fixtures/old_torch_capture/<release>/<script>/{manifest.json,attempt_NNN/...,stdout.txt}
#   tests/fixtures/old_torch_capture/<release>/index.json
#
# Usage: tests/oracle/old_torch/make_old_capture_fixtures.sh [RELEASE ...]   (default 2.5 2.6 2.9)
#
# As make_old_torch_fixtures.sh: each release gets a temporary venv from PyPI
# (its Linux wheels are CUDA builds: about 1 GB of torch and 2-5 GB of CUDA
# packages), deleted before the next, so the disk holds one at a time.  The
# package and the scripts run from a copy under $WORK (default
# /tmp/exportlens-old-capture), so the paths in the captures name that copy.
# Every script also runs plainly: its stdout must equal the captured run's.
# Program files over 200 KB are left out (index.json says which); the traces
# are kept.  Run once; commit the outputs.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
WORK=${WORK:-/tmp/exportlens-old-capture}
PYTHON=${PYTHON:-python3}
RELEASES=("$@")
[ ${#RELEASES[@]} -gt 0 ] || RELEASES=(2.5 2.6 2.9)
# the constraint violations, the data-dependent errors and one success;
# --draft for the first data-dependent one only (the fixtures stay small)
SCRIPTS=(cv_specialized cv_relation cv_range dd_item dd_nonzero ok_simple)
DRAFT_SCRIPTS=" dd_item "

mkdir -p "$WORK"
rm -rf "$WORK/src" "$WORK/captures"
mkdir -p "$WORK/src" "$WORK/captures"
cp -r "$ROOT/resources/python" "$WORK/src/python"
cp -r "$ROOT/tests/capture/scripts" "$WORK/src/scripts"
find "$WORK/src" -name __pycache__ -prune -exec rm -rf {} +

for rel in "${RELEASES[@]}"; do
  venv="$WORK/venv-$rel"
  out="$ROOT/tests/fixtures/old_torch_capture/$rel"
  echo "== torch $rel" >&2
  rm -rf "$venv"
  "$PYTHON" -m venv "$venv"
  # The local CPU wheel folder and config are bypassed: these come from PyPI.
  PIP_FIND_LINKS= PIP_CONFIG_FILE=/dev/null "$venv/bin/pip" install --quiet --no-cache-dir "torch==$rel.*" numpy
  rm -rf "$out"
  mkdir -p "$out"
  for s in "${SCRIPTS[@]}"; do
    cap="$WORK/captures/$rel/$s"
    mkdir -p "$(dirname "$cap")"
    opts=()
    [[ "$DRAFT_SCRIPTS" == *" $s "* ]] && opts=(--draft)
    echo "   $s ${opts[*]}" >&2
    set +e
    (cd "$WORK/src/scripts" && PYTHONDONTWRITEBYTECODE=1 "$venv/bin/python" "$s.py" \
        > "$WORK/captures/$rel/$s.plain.stdout" 2> /dev/null)
    plain_rc=$?
    (cd "$WORK/src/scripts" && PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$WORK/src/python" \
        "$venv/bin/python" -m exportlens_capture -o "$cap" "${opts[@]}" "$s.py" \
        > "$WORK/captures/$rel/$s.stdout" 2> "$WORK/captures/$rel/$s.stderr")
    rc=$?
    set -e
    "$PYTHON" "$HERE/copy_capture_fixture.py" --capture "$cap" --stdout "$WORK/captures/$rel/$s.stdout" \
        --plain-stdout "$WORK/captures/$rel/$s.plain.stdout" --exit "$rc" --plain-exit "$plain_rc" \
        --out "$out/$s" --index "$out/index.json" --name "$s"
  done
  rm -rf "$venv"
done
du -sh "$ROOT/tests/fixtures/old_torch_capture" >&2
