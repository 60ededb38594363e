#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan) into build-fuzz/, seeds
# each corpus from the oracle fixtures (build/fixtures, made by the normal
# build) and runs every target for SECONDS (default 30), after replaying the
# committed regression inputs (tests/fuzz/regressions/<target>/). Exits non-zero
# on any finding; a finding's input is what to add to regressions/.
set -euo pipefail
seconds="${1:-30}"
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out="${EXPORTLENS_FUZZ_DIR:-$repo/build-fuzz}"
fixtures="${EXPORTLENS_FIXTURES:-$repo/build/fixtures}"
python="${EXPORTLENS_PYTHON:-$repo/.venv/bin/python}"
command -v clang++ >/dev/null || { echo "run_fuzzers.sh: needs clang (apt-get install clang)" >&2; exit 2; }
[ -d "$fixtures" ] || { echo "run_fuzzers.sh: no fixtures at $fixtures (build ExportLens first)" >&2; exit 2; }

CC=clang CXX=clang++ cmake -S "$repo/tests/fuzz" -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$out" -j "$(nproc)"
"$python" "$repo/tests/fuzz/make_seeds.py" "$fixtures" "$out/corpus"

status=0
for target in fuzz_pt2_reader fuzz_program_json fuzz_expression fuzz_spec fuzz_spec_json fuzz_inputs_file fuzz_trace_log; do
  regressions="$repo/tests/fuzz/regressions/$target"
  if [ -d "$regressions" ] && [ -n "$(ls -A "$regressions")" ]; then
    "$out/$target" -rss_limit_mb=2048 -timeout=10 "$regressions"/* >"$out/$target.regressions.log" 2>&1 \
      || { echo "$target: a regression input fails again (see $out/$target.regressions.log)"; status=1; }
  fi
  mkdir -p "$out/corpus/$target" "$out/findings/$target"
  # Short inputs keep executions fast (make_seeds.py's reader seeds fit 16 KiB);
  # entropic scheduling costs more than it finds here (libFuzzer 14 spent half its time on it).
  limits=(-entropic=0)
  [ "$target" = fuzz_pt2_reader ] && limits+=(-max_len=16384)
  if "$out/$target" "${limits[@]}" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
       -artifact_prefix="$out/findings/$target/" "$out/corpus/$target" >"$out/$target.log" 2>&1; then
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$out/$target.log" | grep -o '[0-9]*$' || true)
    cov=$(grep -o 'cov: [0-9]*' "$out/$target.log" | tail -1 || true)
    echo "$target: ${execs:-?} executions, $cov, no finding"
  else
    echo "$target: FINDING (see $out/$target.log and $out/findings/$target/)"
    status=1
  fi
done
exit $status
