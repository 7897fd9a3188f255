#!/usr/bin/env bash
# TPC-H in shoal against DuckDB on the same Parquet files (doc/tpch.md): `make tpch SF=1`.
#
#   bench/tpch/run.sh [SF=1]     env: THREADS=2 REPEAT=3 TIMEOUT=300 (seconds per run)
#                                     QUERIES="q01 q06" (default: all 22) JOBS=2
#                                     SETTINGS="shoal.coded_strings=off" (SET for shoal)
#
# 1. builds shoal, bench_tpch_dbgen and bench_tpch_run (build/release);
# 2. generates build/tpch/sf<SF>/<table>/*.parquet (skipped when already complete);
# 3. loads each table into the warehouse build/tpch/sf<SF>-warehouse with the shoal shell:
#    CREATE TABLE t AS SELECT * FROM read_parquet('...') (skipped when already loaded);
# 4. runs each query in shoal (bench_tpch_run: one process, the warehouse opened once, so load
#    time is not counted) and in DuckDB (tools/duckdb/tpch.mjs over the Parquet files), THREADS
#    threads each, one warm-up then the median of REPEAT runs; compares the answers;
# 5. prints query | shoal ms | DuckDB ms | ratio | answer, the geometric mean of the ratios,
#    and how busy the machine was.
set -uo pipefail

SF="${1:-${SF:-1}}"
THREADS="${THREADS:-2}"
REPEAT="${REPEAT:-3}"
TIMEOUT="${TIMEOUT:-300}"
JOBS="${JOBS:-2}"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
BUILD=build/release
DATA="$ROOT/build/tpch/sf$SF"
WH="$ROOT/build/tpch/sf$SF-warehouse"
OUT="$ROOT/build/tpch/sf$SF-results"
QDIR="$ROOT/bench/tpch/queries"
TABLES="region nation supplier part partsupp customer orders lineitem"
START=$SECONDS
LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)"

if [ ! -f "$BUILD/build.ninja" ]; then
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null || exit 1
fi
cmake --build "$BUILD" -j "$JOBS" --target shoal bench_tpch_dbgen bench_tpch_run >/dev/null || {
  echo "tpch: build failed (cmake --build $BUILD --target shoal bench_tpch_dbgen bench_tpch_run)"; exit 1; }
DUCKDB_DIR="$ROOT/build/duckdb"
if [ ! -d "$DUCKDB_DIR/node_modules/@duckdb/node-api" ]; then
  bash scripts/install-deps.sh >/dev/null
fi
if [ ! -d "$DUCKDB_DIR/node_modules/@duckdb/node-api" ]; then
  echo "tpch: DuckDB (npm @duckdb/node-api in build/duckdb) is not installed: nothing to compare against"; exit 1
fi

if [ ! -f "$DATA/.complete" ]; then
  rm -rf "$DATA" "$WH"
  echo "== generating TPC-H SF $SF into ${DATA#$ROOT/}"
  "$BUILD/bench_tpch_dbgen" --sf "$SF" --out "$DATA" || exit 1
  touch "$DATA/.complete"
fi
if [ ! -f "$WH/.loaded" ]; then
  rm -rf "$WH"
  echo "== loading into the shoal warehouse ${WH#$ROOT/}"
  for t in $TABLES; do
    t0=$(date +%s.%N)
    "$BUILD/shoal" "$WH" --threads "$THREADS" \
      -c "CREATE TABLE $t AS SELECT * FROM read_parquet('$DATA/$t/*.parquet')" >/dev/null || exit 1
    printf '   %-9s %8.1f s\n' "$t" "$(echo "$(date +%s.%N) - $t0" | bc)"
  done
  touch "$WH/.loaded"
fi

rm -rf "$OUT"
mkdir -p "$OUT"
QUERIES="${QUERIES:-$(cd "$QDIR" && ls q*.sql | sed 's/\.sql$//')}"
# A run past TIMEOUT is interrupted inside bench_tpch_run; `timeout` is the backstop for the
# whole process (warm-up and repeats) and for DuckDB.
PROC_TIMEOUT=$(( TIMEOUT * (REPEAT + 1) + 30 ))
# SETTINGS="shoal.coded_strings=off shoal.runtime_filters=off": settings for every shoal query.
SET_ARGS=""
for s in ${SETTINGS:-}; do SET_ARGS="$SET_ARGS --set $s"; done

field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2" | head -1; }
SUMMARY="$OUT/summary.txt"
{
  echo "TPC-H SF $SF: shoal (Delta tables) vs DuckDB (Parquet files), $THREADS threads each, median of $REPEAT after a warm-up"
  printf '%-5s %12s %12s %9s  %s\n' query "shoal ms" "DuckDB ms" ratio answer
} | tee "$SUMMARY"
LOGSUM=0; NRATIO=0; NOK=0
for q in $QUERIES; do
  s_line=$(timeout "$PROC_TIMEOUT" "$BUILD/bench_tpch_run" run --warehouse "$WH" --threads "$THREADS" $SET_ARGS \
           --repeat "$REPEAT" --timeout-s "$TIMEOUT" --out "$OUT" "$QDIR/$q.sql" 2>"$OUT/$q.shoal.err")
  s_rc=$?
  d_line=$(timeout "$PROC_TIMEOUT" node tools/duckdb/tpch.mjs --duckdb-dir "$DUCKDB_DIR" --threads "$THREADS" \
           --repeat "$REPEAT" --data "$DATA" --out "$OUT" "$QDIR/$q.sql" 2>"$OUT/$q.duckdb.err")
  d_rc=$?
  s_ms=$(field median_ms " $s_line"); d_ms=$(field median_ms " $d_line")
  ratio="-"; answer=""
  if [ "$s_rc" = 124 ] || [[ "$s_line" == *timeout=* ]]; then
    answer="TIMEOUT(>${TIMEOUT}s)"; s_ms="-"
  elif [[ "$s_line" == *error=* ]]; then
    answer="ERROR($(sed -n 's/.* error=\([A-Za-z]*\).*/\1/p' <<<"$s_line"))"; s_ms="-"
  elif [ -z "$s_ms" ]; then
    answer="ERROR(crash rc=$s_rc)"; s_ms="-"
  fi
  if [ "$d_rc" = 124 ]; then d_ms="-"; [ -z "$answer" ] && answer="DuckDB TIMEOUT"
  elif [ -z "$d_ms" ]; then d_ms="-"; [ -z "$answer" ] && answer="DuckDB ERROR: $(field error " $d_line")"
  fi
  if [ -z "$answer" ]; then
    answer=$("$BUILD/bench_tpch_run" compare "$QDIR/$q.sql" "$OUT/$q.shoal.txt" "$OUT/$q.duckdb.txt")
    [ "$answer" = ok ] && NOK=$((NOK + 1))
  fi
  if [ "$s_ms" != "-" ] && [ "$d_ms" != "-" ]; then
    ratio=$(awk -v a="$s_ms" -v b="$d_ms" 'BEGIN { printf "%.2f", a / b }')
    LOGSUM=$(awk -v s="$LOGSUM" -v a="$s_ms" -v b="$d_ms" 'BEGIN { printf "%.12f", s + log(a / b) }')
    NRATIO=$((NRATIO + 1))
    s_ms=$(printf '%.1f' "$s_ms"); d_ms=$(printf '%.1f' "$d_ms")
  elif [ "$d_ms" != "-" ]; then
    d_ms=$(printf '%.1f' "$d_ms")
  fi
  printf '%-5s %12s %12s %9s  %s\n' "$q" "$s_ms" "$d_ms" "$ratio" "${answer:0:160}" | tee -a "$SUMMARY"
done
NQ=$(wc -w <<<"$QUERIES")
times >"$OUT/times.txt"  # this shell's, then its children's user and sys CPU (a builtin: no subshell)
{
  if [ "$NRATIO" -gt 0 ]; then
    echo "geometric mean of shoal/DuckDB over the $NRATIO of $NQ queries that ran in both: $(awk -v s="$LOGSUM" -v n="$NRATIO" 'BEGIN { printf "%.2f", exp(s / n) }')x"
  fi
  echo "answers matching DuckDB: $NOK of $NQ"
  read -r cu cs < <(tail -1 "$OUT/times.txt" | tr 'ms' '  ' | awk '{ printf "%.1f %.1f", $1 * 60 + $2, $3 * 60 + $4 }')
  WALL=$(( SECONDS - START ))
  echo "machine: $(nproc) cores; load average before $LOAD_BEFORE, after $(cut -d' ' -f1-3 /proc/loadavg); this run's processes used user $cu s + sys $cs s of CPU in $WALL s wall"
} | tee -a "$SUMMARY"
echo "(results and answers: ${OUT#$ROOT/})"
