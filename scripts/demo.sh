#!/usr/bin/env bash
# shoal's main job in miniature, on a local demo warehouse (build/demo-warehouse). It grows with
# each capability; today: the SQL core, Parquet files and Delta tables as far as they are built.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
shoal="$root/build/release/shoal"
wh="$root/build/demo-warehouse"
rm -rf "$wh" && mkdir -p "$wh"

step() { printf '\n\033[1m== %s\033[0m\n' "$1"; }
run() { printf 'shoal> %s\n' "$1"; "$shoal" "$wh" --stats -c "$1" || true; }

step "Vectorized SQL over generated data"
run "SELECT i % 5 AS bucket, count(*) AS n, sum(i) AS total, avg(i) AS mean FROM range(1000000) AS r(i) GROUP BY bucket ORDER BY bucket"

step "Exact DECIMAL arithmetic and three-valued logic"
run "SELECT 0.1 + 0.2 AS exact, 0.1::DOUBLE + 0.2::DOUBLE AS binary_float, NULL AND FALSE AS and_false, NULL OR TRUE AS or_true"

step "Joins, nested values and dates"
run "SELECT c.name, o.amount, [o.amount, o.amount * 2] AS pair, DATE '2024-01-31' + o.id AS due FROM (VALUES (1, 'ann'), (2, 'bob')) AS c(id, name) LEFT JOIN (VALUES (1, 9.5), (1, 20.25)) AS o(id, amount) ON c.id = o.id ORDER BY c.name, o.amount"

step "EXPLAIN ANALYZE"
run "EXPLAIN ANALYZE SELECT count(*) FROM range(10000000) AS r(i) WHERE i % 7 = 0"

step "Errors are named"
run "SELECT nope FROM range(3)"
run "SELECT CAST('abc' AS INT)"

printf '\nDemo warehouse: %s\n' "$wh"
