#!/usr/bin/env bash
# The device check: builds the headless CLI against this machine's LibTorch
# (its Python torch's), exports a handful of programs with that torch (a
# CNN, a transformer block, a torch.cond, a buffer-mutating model), runs
#   exportlens run --device cuda --compare cpu --profile --trace --cuda-graph
#   exportlens numerics --device cuda (every node on the CPU against the GPU)
#   exportlens run compiled.pt2 --compiled model --device cuda (the CNN's AOTInductor
#     package, compiled there by torch, against torch's own run of it)
# on each, and checks the results against torch (check_reports.py). The
# report goes to $OUT/device_check/, where the device machine's output is
# collected: four files only (report.md, report.json, check.log and
# runs.tar.gz with every run's profile, trace and output), since only a few
# files, at most two folders down, come back from such a machine; the
# exported programs and the runs themselves stay in the work folder.
#
# usage: tests/device/gpu_check.sh [--device cuda|cpu] [--python PY] [--exportlens BIN]
#                                  [--out DIR] [--work DIR] [--build-dir DIR] [--build-only] [--jobs N]
#   --device cpu    the same check on the CPU (what CI runs: no kernels, no CUDA graph)
#   --exportlens    use this binary instead of building one
#   --out DIR       the report's folder (default $OUT/device_check, else BUILD/device_check)
#   --work DIR      programs and runs (default BUILD/device_check_work)
#   --build-only    configure and build the headless CLI, nothing else
#
# What the machine needs: Python torch (CUDA build for --device cuda), g++,
# cmake, ninja (or make), nvcc for the CUDA toolkit headers. No Qt, no
# Graphviz, no network: nlohmann_json's headers and zlib's, where the
# system has none, come from tests/device/carry/ (tests/device/prepare_carry.sh
# fills it on a machine that has them; the device run carries that folder).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
here="$repo/tests/device"
device=cuda python="" exportlens="" out="" work="" build="" build_only=0 jobs=$(nproc)
while [ $# -gt 0 ]; do
  case "$1" in
    --device) device="$2"; shift 2 ;;
    --python) python="$2"; shift 2 ;;
    --exportlens) exportlens="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --build-dir) build="$2"; shift 2 ;;
    --build-only) build_only=1; shift ;;
    --jobs) jobs="$2"; shift 2 ;;
    *) echo "gpu_check.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
build="${build:-$repo/build-device}"
out="${out:-${OUT:-$build}/device_check}"
work="${work:-$build/device_check_work}"
mkdir -p "$out" "$work"
rm -f "$work/build_seconds"
log="$out/check.log"
: >"$log"
say() { echo "gpu_check: $*" | tee -a "$log"; }
elapsed() { echo $(($(date +%s) - $1)); }
t0=$(date +%s)

# --- the machine -------------------------------------------------------------
if [ -z "$python" ]; then
  for p in "$repo/.venv-cuda/bin/python" "$repo/.venv/bin/python" python3 python; do
    if command -v "$p" >/dev/null 2>&1 && "$p" -c "import torch" 2>/dev/null; then python="$p"; break; fi
  done
fi
[ -n "$python" ] || { say "no Python with torch found (give --python)"; exit 1; }
torch_facts=$("$python" -c "import torch; print(torch.__version__, torch.version.cuda, torch.cuda.is_available(), torch.utils.cmake_prefix_path)")
read -r torch_version torch_cuda cuda_ok torch_prefix <<<"$torch_facts"
say "torch $torch_version (CUDA $torch_cuda, GPU visible: $cuda_ok) from $python"
{ command -v nvidia-smi >/dev/null && nvidia-smi -L; command -v nvcc >/dev/null && nvcc --version | tail -1;
  cmake --version | head -1; command -v ninja >/dev/null && echo "ninja $(ninja --version)"; } 2>&1 | tee -a "$log" || true
if [ "$build_only" = 0 ] && [ "$device" != cpu ] && [ "$cuda_ok" != True ]; then
  say "this torch sees no CUDA device: run with --device cpu, or on a machine with a GPU"
  exit 1
fi

# --- the headless CLI ----------------------------------------------------------
if [ -z "$exportlens" ]; then
  carry="$here/carry"
  extra=()
  lacks="run tests/device/prepare_carry.sh on a machine that has it and bring tests/device/carry along"
  if ! [ -f /usr/include/nlohmann/json.hpp ]; then
    [ -f "$carry/nlohmann/json.hpp" ] || { say "no nlohmann/json.hpp here nor in $carry: $lacks"; exit 1; }
    extra+=("-DEXPORTLENS_JSON_INCLUDE_DIR=$carry")
  fi
  if ! [ -f /usr/include/zlib.h ]; then
    [ -f "$carry/zlib/zlib.h" ] || { say "no zlib.h here nor in $carry/zlib: $lacks"; exit 1; }
    libz=$(ldconfig -p 2>/dev/null | awk '/libz\.so\.1 .*x86-64/ {print $NF; exit}')
    extra+=("-DZLIB_INCLUDE_DIR=$carry/zlib" "-DZLIB_LIBRARY=${libz:-/lib/x86_64-linux-gnu/libz.so.1}")
  fi
  generator=$(command -v ninja >/dev/null && echo Ninja || echo "Unix Makefiles")
  tb=$(date +%s)
  say "configuring the headless CLI in $build (${extra[*]:-system packages})"
  cmake -S "$repo" -B "$build" -G "$generator" -DCMAKE_BUILD_TYPE=Release \
    -DEXPORTLENS_GUI=OFF -DEXPORTLENS_TRACER=OFF -DEXPORTLENS_TORCH_MIN_VERSION=2.11 \
    -DCMAKE_PREFIX_PATH="$torch_prefix" -DEXPORTLENS_PYTHON="$(command -v "$python")" \
    -DEXPORTLENS_VENV="$(dirname "$(dirname "$(command -v "$python")")")" "${extra[@]}" >>"$log" 2>&1 ||
    { tail -30 "$log"; say "configure failed (full log: $log)"; exit 1; }
  cmake --build "$build" --target exportlens -j "$jobs" >>"$log" 2>&1 ||
    { grep -m20 -B2 -A6 "error" "$log" | tail -60; say "build failed (full log: $log)"; exit 1; }
  exportlens="$build/app/exportlens"
  say "built $exportlens in $(elapsed "$tb") s"
  echo "$(elapsed "$tb")" >"$work/build_seconds"
fi
"$exportlens" devices | tee -a "$log"
[ "$build_only" = 1 ] && exit 0

# --- programs, runs, checks ----------------------------------------------------
models="$work/models" runs="$work/runs"
rm -rf "$models" "$runs"
say "exporting the programs with torch $torch_version"
PYTHONDONTWRITEBYTECODE=1 "$python" "$here/device_models.py" --out "$models" --device "$device" 2>&1 | tee -a "$log"
for dir in "$models"/*/; do
  name=$(basename "$dir")
  r="$runs/$name"
  mkdir -p "$r"
  set +e
  "$exportlens" run "$dir/program.pt2" --inputs "$dir/inputs.pt" --device "$device" --compare cpu \
    --cuda-graph --warmup 3 --repeat 10 --profile "$r/profile.json" --trace "$r/trace.json" --out "$r/out.pt" \
    >"$r/stdout.txt" 2>"$r/stderr.txt"
  echo $? >"$r/rc"
  # Numerics: the program on the CPU against the same on the device, node by node
  # (on the CPU, against float64: the check's CPU rehearsal).
  if [ "$device" = cpu ]; then b_way=(--dtype fp64); else b_way=(--device "$device"); fi
  "$exportlens" numerics "$dir/program.pt2" --inputs "$dir/inputs.pt" "${b_way[@]}" --json "$r/numerics.json" \
    >"$r/numerics_stdout.txt" 2>"$r/numerics_stderr.txt"
  echo $? >"$r/numerics_rc"
  # A compiled model (AOTInductor) of the program, run with consent and compared with the program interpreted.
  if [ -f "$dir/compiled.pt2" ]; then
    "$exportlens" run "$dir/compiled.pt2" --compiled model --inputs "$dir/inputs.pt" --device "$device" \
      --warmup 3 --repeat 10 --json "$r/compiled.json" --out "$r/compiled_out.pt" \
      >"$r/compiled_stdout.txt" 2>"$r/compiled_stderr.txt"
    echo $? >"$r/compiled_rc"
  fi
  set -e
  say "$name: exit $(cat "$r/rc"); $(grep -m1 '^ran on' "$r/stdout.txt" || head -1 "$r/stderr.txt")"
done
set +e
PYTHONDONTWRITEBYTECODE=1 "$python" "$here/check_reports.py" --models "$models" --runs "$runs" --device "$device" \
  --build-seconds "$work/build_seconds" --out "$out" 2>&1 | tee -a "$log"
status=${PIPESTATUS[0]}
tar -czf "$out/runs.tar.gz" -C "$work" runs
set -e
say "done in $(elapsed "$t0") s; report: $out/report.md"
exit "$status"
