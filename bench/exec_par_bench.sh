#!/usr/bin/env bash
# Parallel hash join / aggregation / sort (doc/execution.md), shoal before and after vs DuckDB.
# Every query runs on range()-generated rows in both engines (no files), under EXPLAIN ANALYZE
# so no engine pays for shipping result rows to the client. Per query and engine it prints the
# median wall time of RUNS runs (after one warm-up) and the CPU time (user+sys) per run, and the
# ratios new/base and new/duck measured in the same run.
#
#   BASE=/work/main/build/release/shoal bench/exec_par_bench.sh
#   RUNS=5 THREADS=2 BASE=... NEW=build/release/shoal bench/exec_par_bench.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
THREADS=${THREADS:-2}
RUNS=${RUNS:-5}
NEW=${NEW:-$ROOT/build/release/shoal}
BASE=${BASE:-}
DUCK="node $ROOT/build/duckdb/duckq.mjs --threads $THREADS"
WH=$(mktemp -d)
trap 'rm -rf "$WH"' EXIT

declare -a NAMES QUERIES
add() { NAMES+=("$1"); QUERIES+=("$2"); }
# Joins: the build side (right) has N unique keys, the probe side 6M rows in scattered key order.
add "join build 1.5M probe 6M (int)" "SELECT count(*), sum(b.j) FROM range(6000000) a(i) JOIN (SELECT j FROM range(1500000) t(j)) b ON (a.i * 7919) % 1500000 = b.j"
add "join build 6M probe 6M (int)" "SELECT count(*), sum(b.j) FROM range(6000000) a(i) JOIN (SELECT j FROM range(6000000) t(j)) b ON (a.i * 7919) % 6000000 = b.j"
add "join build 1.5M probe 6M (2 keys)" "SELECT count(*), sum(b.j) FROM range(6000000) a(i) JOIN (SELECT j FROM range(1500000) t(j)) b ON (a.i * 7919) % 1500000 = b.j AND a.i % 1 = b.j % 1"
add "join build 1.5M probe 6M (string)" "SELECT count(*), sum(b.j) FROM range(6000000) a(i) JOIN (SELECT j, 'key#' || CAST(j AS VARCHAR) AS s FROM range(1500000) t(j)) b ON 'key#' || CAST((a.i * 7919) % 1500000 AS VARCHAR) = b.s"
# Aggregation: 10M rows into 10k and 5M groups.
add "group by 10M rows 10k groups" "SELECT count(*), sum(s) FROM (SELECT (i * 7919) % 10000 AS g, sum(i) AS s FROM range(10000000) t(i) GROUP BY g)"
add "group by 10M rows 5M groups" "SELECT count(*), sum(s) FROM (SELECT (i * 7919) % 5000000 AS g, sum(i) AS s FROM range(10000000) t(i) GROUP BY g)"
# Sort: 10M rows, no limit.
add "order by 10M rows (int)" "SELECT i FROM range(10000000) t(i) ORDER BY (i * 7919) % 10000019"

median() { sort -g | awk '{v[NR] = $1} END {if (NR == 0) print "nan"; else print v[int((NR + 1) / 2)]}'; }
# shoal_time BINARY SQL -> "median_wall_ms cpu_ms_per_run"
shoal_time() {
  local args=() out tf
  for ((r = 0; r <= RUNS; r++)); do args+=(-c "EXPLAIN ANALYZE $2"); done
  tf=$(mktemp)
  out=$(/usr/bin/time -f "%U %S" -o "$tf" "$1" "$WH" --threads "$THREADS" --format csv "${args[@]}")
  local ms cpu
  ms=$(sed -n 's/.*Total: rows=[0-9]* time=\([0-9.]*\)ms.*/\1/p' <<<"$out" | tail -n "$RUNS" | median)
  cpu=$(awk -v n=$((RUNS + 1)) '{printf "%.0f", ($1 + $2) * 1000 / n}' "$tf")
  rm -f "$tf"
  echo "$ms $cpu"
}
duck_time() {
  local tf out
  tf=$(mktemp)
  out=$(/usr/bin/time -f "%U %S" -o "$tf" $DUCK --repeat "$RUNS" "EXPLAIN ANALYZE $1" "EXPLAIN ANALYZE $1" 2>&1 >/dev/null)
  local ms cpu
  ms=$(sed -n 's/.*median_ms=\([0-9.]*\).*/\1/p' <<<"$out" | tail -1)
  cpu=$(awk -v n=$((RUNS + 1)) '{printf "%.0f", ($1 + $2) * 1000 / n}' "$tf")
  rm -f "$tf"
  echo "$ms $cpu"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }

echo "threads=$THREADS runs=$RUNS load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-36s %16s %16s %16s %9s %9s\n" "query" "base ms (cpu)" "new ms (cpu)" "duck ms (cpu)" "new/base" "new/duck"
for ((q = 0; q < ${#NAMES[@]}; q++)); do
  sql=${QUERIES[$q]}
  read -r nw nc <<<"$(shoal_time "$NEW" "$sql")"
  bw=nan bc=nan
  if [ -n "$BASE" ]; then read -r bw bc <<<"$(shoal_time "$BASE" "$sql")"; fi
  read -r dw dc <<<"$(duck_time "$sql")"
  printf "%-36s %16s %16s %16s %9s %9s\n" "${NAMES[$q]}" "$bw ($bc)" "$nw ($nc)" "$dw ($dc)" "$(ratio "$nw" "$bw")" "$(ratio "$nw" "$dw")"
done
