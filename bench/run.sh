#!/usr/bin/env bash
# Runs every benchmark of the project on the release build and prints each one's table:
# end-to-end drivers (bench/*.sh, bench_* binaries) and the layer microbenchmarks
# (*_benchmark, Google Benchmark). Each benchmark measures its own baseline in the same run
# (DuckDB on the same files, or shoal's slower path) and prints ratios.
#
#   make bench                 # everything
#   BENCH_FILTER=scan make bench   # only benchmarks whose name contains "scan"
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build/release}
FILTER=${BENCH_FILTER:-}
failed=0

run() {
  local name=$1
  shift
  if [ -n "$FILTER" ] && [[ "$name" != *"$FILTER"* ]]; then return; fi
  echo
  echo "=== $name"
  if ! "$@"; then
    echo "!!! $name failed"
    failed=1
  fi
}

cmake --build "$BUILD" -j "${JOBS:-2}" >/dev/null || { echo "build failed" >&2; exit 1; }

for script in "$ROOT"/bench/*.sh; do
  run "$(basename "$script" .sh)" bash "$script"
done
# The Python module's fetch overhead against the C++ API (when the module is built).
if [ -d "$ROOT/build/python/shoal" ]; then
  run python_fetch env PYTHONPATH="$ROOT/build/python" /usr/bin/python3 "$ROOT/bench/python_fetch.py"
  # shoal.dask on a LocalCluster against single-process shoal (doc/dask.md).
  if /usr/bin/python3 -c "import distributed" 2>/dev/null; then
    run dask_bench env PYTHONPATH="$ROOT/build/python" /usr/bin/python3 "$ROOT/bench/dask_bench.py"
    run dask_dml_bench env PYTHONPATH="$ROOT/build/python" /usr/bin/python3 "$ROOT/bench/dask_dml_bench.py" 24000000
  fi
fi
# Drivers that a bench/*.sh script runs with its own arguments.
SCRIPT_DRIVERS=" bench_parquet_rw "
for bin in "$BUILD"/bench_*; do
  [ -x "$bin" ] || continue
  [[ "$SCRIPT_DRIVERS" == *" $(basename "$bin") "* ]] && continue
  run "$(basename "$bin")" "$bin"
done
for bin in "$BUILD"/*_benchmark; do
  [ -x "$bin" ] || continue
  run "$(basename "$bin")" "$bin" --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
done
exit $failed
