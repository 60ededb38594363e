#!/usr/bin/env bash
# One entry point for a fresh clone:
#   packaging/build.sh run   [FILE]      set up, build, open the GUI on FILE (.pt2 or model .so), by default on the built-in example
#   packaging/build.sh test             set up, build, run the whole test suite
#   packaging/build.sh build            set up and build only
#   packaging/build.sh test-engine      set up, build and run the engine's suites only (no GUI, CLI or tracer
#                                       suites): what CI runs under the sanitizers
#   packaging/build.sh package          set up, build, and make the Debian package build/exportlens_*.deb
#                                       (packaging/test_package.sh installs it into a clean root and runs it)
#   packaging/build.sh fuzz [SECONDS]   build the libFuzzer targets (clang, ASan+UBSan) into build-fuzz/
#                                       and run each for SECONDS (default 30) from its seed corpus
# EXPORTLENS_TORCH=cpu|cuda picks the LibTorch flavour (default: cuda when nvidia-smi
# lists a GPU, else cpu): .venv + build/ or .venv-cuda + build-cuda/ (packaging/flavour.sh).
# EXPORTLENS_SANITIZE=1 builds with AddressSanitizer + UndefinedBehaviorSanitizer into
# build-asan/ (test, build and run modes alike).
# Set-up (packaging/setup.sh) is idempotent; the build is incremental (Ninja + ccache).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
sanitize="${EXPORTLENS_SANITIZE:-0}"
. "$repo/packaging/flavour.sh"
if [ "$sanitize" = 1 ]; then
  build="${EXPORTLENS_BUILD_DIR:-$repo/build-asan}"
  # LibTorch and Qt are not instrumented: their one-time allocations at exit are not leaks of ours.
  export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:detect_odr_violation=0}"
  export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
else
  build="${EXPORTLENS_BUILD_DIR:-$flavour_build}"
fi
mode="${1:-build}"
shift || true

if [ "$mode" = fuzz ]; then
  exec "$repo/tests/fuzz/run_fuzzers.sh" "${1:-30}"
fi

"$repo/packaging/setup.sh"

jobs=${EXPORTLENS_JOBS:-$(nproc)}
# ccache hits across clones in other folders (CI builds a fresh clone).
export CCACHE_BASEDIR="$repo" CCACHE_NOHASHDIR=true
cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="${EXPORTLENS_BUILD_TYPE:-Release}" \
  -DEXPORTLENS_VENV="$flavour_venv" -DEXPORTLENS_VISION_PYTHON="$vision_venv/bin/python" \
  -DEXPORTLENS_SANITIZE="$([ "$sanitize" = 1 ] && echo ON || echo OFF)" >/dev/null
# The suites of the engine libraries (reader, runtime, symbolic shapes, solver, passes, printer, layout).
engine_suites=(test_pt2_reader test_json_document test_bad_input test_runtime test_op_safety test_expr test_shape_env
               test_printer test_layout test_check_oracle test_decompositions test_rule_numerics test_op_schema_text)
if [ "$mode" = test-engine ]; then
  cmake --build "$build" -j "$jobs" --target "${engine_suites[@]}"
else
  cmake --build "$build" -j "$jobs"
fi

case "$mode" in
  build) ;;
  package)
    (cd "$build" && cpack -G DEB)
    ;;
  test)
    export QT_QPA_PLATFORM=offscreen
    ctest --test-dir "$build" --output-on-failure -j "$jobs"
    ;;
  test-engine)
    export QT_QPA_PLATFORM=offscreen
    ctest --test-dir "$build" --output-on-failure -j "$jobs" -R "^($(IFS='|'; echo "${engine_suites[*]}"))\$"
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
    echo "usage: packaging/build.sh run [FILE.pt2] | test | test-engine | build | package | fuzz [SECONDS]" >&2
    exit 2
    ;;
esac
