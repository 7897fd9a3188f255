#!/usr/bin/env bash
# TPC-H under a memory limit (doc/memory.md, "With spilling"): each query once (after a warm-up)
# with SET memory_limit, its peak RSS, and its answer against DuckDB's on the same Parquet files.
#
#   bench/tpch/memory_limit.sh LIMIT [SF=1]    e.g. bench/tpch/memory_limit.sh 256MB
#   QUERIES="q09 q18" bench/tpch/memory_limit.sh 128MB    only those queries
#
# Needs the data and warehouse of `make tpch SF=<SF>` (build/tpch/sf<SF>, sf<SF>-warehouse); DuckDB's
# answers are computed once into build/tpch/sf<SF>-duckdb-answers. Prints one line per query:
# name, median_ms (or error=...), rss_kb, answer=ok or the difference.
set -uo pipefail
LIMIT="${1:?usage: memory_limit.sh LIMIT [SF]}"
SF="${2:-1}"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
DATA="build/tpch/sf$SF"; WH="build/tpch/sf$SF-warehouse"; ANS="build/tpch/sf$SF-duckdb-answers"
OUT="build/tpch/sf$SF-memory-$LIMIT"
[ -f "$WH/.loaded" ] || { echo "memory_limit.sh: run 'make tpch SF=$SF' first"; exit 1; }
rm -rf "$OUT"; mkdir -p "$OUT" "$ANS"
for q in ${QUERIES:-$(cd bench/tpch/queries && ls q*.sql | sed 's/\.sql$//')}; do
  [ -f "$ANS/$q.duckdb.txt" ] || node tools/duckdb/tpch.mjs --duckdb-dir build/duckdb --threads 2 --repeat 1 \
      --data "$DATA" --out "$ANS" "bench/tpch/queries/$q.sql" >/dev/null 2>"$OUT/$q.duckdb.err"
  line=$(/usr/bin/time -f "rss_kb=%M" ./build/release/bench_tpch_run run --warehouse "$WH" --threads 2 \
      --set "memory_limit=$LIMIT" --repeat 1 --timeout-s 300 --out "$OUT" "bench/tpch/queries/$q.sql" 2>"$OUT/$q.err")
  rss=$(grep -o "rss_kb=[0-9]*" "$OUT/$q.err" | tail -1)
  if [ -f "$OUT/$q.shoal.txt" ] && [ -f "$ANS/$q.duckdb.txt" ]; then
    ans=$(./build/release/bench_tpch_run compare "bench/tpch/queries/$q.sql" "$OUT/$q.shoal.txt" "$ANS/$q.duckdb.txt")
  else
    ans="none"
  fi
  echo "$line $rss answer=${ans:0:200}"
done
