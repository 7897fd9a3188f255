#!/usr/bin/env bash
# Parquet write and full-read speed, shoal vs DuckDB, on a lineitem-like table built with
# range() arithmetic. Prints medians of 3 runs and the ratio shoal/DuckDB (< 1: shoal faster).
#
#   bench/parquet_vs_duckdb.sh [rows] [build_dir]
# Needs a Release build of bench_parquet_rw (default build/release) and DuckDB's duckq.mjs
# (build/duckdb). DuckDB runs with one thread, as shoal does.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ROWS=${1:-3000000}
BUILD=${2:-$ROOT/build/release}
DRIVER=$BUILD/bench_parquet_rw
DUCK="node $ROOT/build/duckdb/duckq.mjs --threads 1"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/shoal-pq-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
[ -x "$DRIVER" ] || { echo "missing $DRIVER (cmake --build $BUILD --target bench_parquet_rw)" >&2; exit 1; }

TABLE="CREATE TABLE li AS SELECT
  (i // 4)::BIGINT AS l_orderkey, ((i * 7919) % 200000)::BIGINT AS l_partkey,
  ((i * 31) % 10000)::BIGINT AS l_suppkey, (i % 4 + 1)::INTEGER AS l_linenumber,
  ((i % 50) + 1)::DECIMAL(15,2) AS l_quantity, (((i * 13) % 10000000) / 100.0)::DECIMAL(15,2) AS l_extendedprice,
  ((i % 11) / 100.0)::DECIMAL(15,2) AS l_discount, ((i % 9) / 100.0)::DECIMAL(15,2) AS l_tax,
  (['A','N','R'])[i % 3 + 1] AS l_returnflag, (['O','F'])[i % 2 + 1] AS l_linestatus,
  (DATE '1992-01-01' + (i % 2500)::INTEGER) AS l_shipdate,
  (DATE '1992-01-01' + ((i + 30) % 2500)::INTEGER) AS l_commitdate,
  (DATE '1992-01-01' + ((i + 45) % 2500)::INTEGER) AS l_receiptdate,
  (['DELIVER IN PERSON','COLLECT COD','NONE','TAKE BACK RETURN'])[i % 4 + 1] AS l_shipinstruct,
  (['TRUCK','MAIL','REG AIR','AIR','FOB','RAIL','SHIP'])[i % 7 + 1] AS l_shipmode,
  substr('carefully final deposits detect slyly agai quickly regular packages', 1 + (i * 7) % 20, 10 + i % 25) || (i % 1000)::VARCHAR AS l_comment
FROM range($ROWS) r(i)"

median() { sed -n 's/.*median_ms=\([0-9.]*\).*/\1/p' | tail -1; }

echo "rows=$ROWS  (median of 3 runs, DuckDB --threads 1)"
DUCK_FILE=$WORK/li_duck.parquet
SHOAL_FILE=$WORK/li_shoal.parquet
duck_write=$($DUCK --repeat 3 "$TABLE" "COPY li TO '$DUCK_FILE' (FORMAT parquet, COMPRESSION zstd)" 2>&1 >/dev/null | median)
shoal_write=$("$DRIVER" write "$DUCK_FILE" "$SHOAL_FILE" 3 2>&1 >/dev/null | median)
COLS="max(l_orderkey), max(l_partkey), max(l_suppkey), max(l_linenumber), max(l_quantity), max(l_extendedprice), max(l_discount), max(l_tax), max(l_returnflag), max(l_linestatus), max(l_shipdate), max(l_commitdate), max(l_receiptdate), max(l_shipinstruct), max(l_shipmode), max(l_comment)"
duck_read=$($DUCK --repeat 3 "SELECT $COLS FROM read_parquet('$DUCK_FILE')" 2>&1 >/dev/null | median)
shoal_read=$("$DRIVER" read "$DUCK_FILE" 3 2>&1 >/dev/null | median)
duck_read_shoal=$($DUCK --repeat 3 "SELECT $COLS FROM read_parquet('$SHOAL_FILE')" 2>&1 >/dev/null | median)
shoal_read_shoal=$("$DRIVER" read "$SHOAL_FILE" 3 2>&1 >/dev/null | median)
duck_size=$(stat -c %s "$DUCK_FILE")
shoal_size=$(stat -c %s "$SHOAL_FILE")

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
printf "%-34s %12s %12s %8s\n" "measure" "shoal_ms" "duckdb_ms" "ratio"
printf "%-34s %12s %12s %8s\n" "write (zstd)" "$shoal_write" "$duck_write" "$(ratio "$shoal_write" "$duck_write")"
printf "%-34s %12s %12s %8s\n" "full read of DuckDB's file" "$shoal_read" "$duck_read" "$(ratio "$shoal_read" "$duck_read")"
printf "%-34s %12s %12s %8s\n" "full read of shoal's file" "$shoal_read_shoal" "$duck_read_shoal" "$(ratio "$shoal_read_shoal" "$duck_read_shoal")"
printf "%-34s %12s %12s %8s\n" "file size (bytes)" "$shoal_size" "$duck_size" "$(ratio "$shoal_size" "$duck_size")"
