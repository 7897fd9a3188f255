#!/usr/bin/env bash
# shoal's main job in miniature, on a local demo warehouse (build/demo-warehouse). It grows with
# each capability: SQL, a Delta table written sorted, concurrent writers at row level, a named
# same-row conflict, selective reads with their pruning statistics.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
shoal="$root/build/release/shoal"
wh="$root/build/demo-warehouse"
rm -rf "$wh" && mkdir -p "$wh"

step() { printf '\n\033[1m== %s\033[0m\n' "$1"; }
run() { printf 'shoal> %s\n' "$1"; "$shoal" "$wh" --summary -c "$1" || true; }

step "Vectorized SQL over generated data"
run "SELECT i % 5 AS bucket, count(*) AS n, sum(i) AS total, avg(i) AS mean FROM range(1000000) AS r(i) GROUP BY bucket ORDER BY bucket"

step "Exact DECIMAL arithmetic and three-valued logic"
run "SELECT 0.1 + 0.2 AS exact, 0.1::DOUBLE + 0.2::DOUBLE AS binary_float, NULL AND FALSE AS and_false, NULL OR TRUE AS or_true"

step "Joins, nested values and dates"
run "SELECT c.name, o.amount, [o.amount, o.amount * 2] AS pair, DATE '2024-01-31' + o.id AS due FROM (VALUES (1, 'ann'), (2, 'bob')) AS c(id, name) LEFT JOIN (VALUES (1, 9.5), (1, 20.25)) AS o(id, amount) ON c.id = o.id ORDER BY c.name, o.amount"

step "EXPLAIN ANALYZE"
run "EXPLAIN ANALYZE SELECT count(*) FROM range(10000000) AS r(i) WHERE i % 7 = 0"

step "A Delta table, sorted on write (LocalSort) so statistics are selective"
run "CREATE TABLE orders TBLPROPERTIES ('shoal.localSort.columns' = 'customer') AS SELECT i AS id, 'c' || (i % 1000) AS customer, (i % 97)::DOUBLE AS amount, DATE '2024-01-01' + (i % 365)::INTEGER AS day FROM range(200000) AS r(i)"
run "SELECT count(*), sum(amount) FROM orders WHERE customer = 'c42'"

step "Two writers change different rows of the same file: both commit (row-level concurrency)"
run "BEGIN; UPDATE orders SET amount = -1 WHERE id = 7; PREPARE TRANSACTION 'writer_a'"
run "BEGIN; UPDATE orders SET amount = -2 WHERE id = 8; PREPARE TRANSACTION 'writer_b'"
run "COMMIT PREPARED 'writer_a'"
run "COMMIT PREPARED 'writer_b'"
run "SELECT id, amount FROM orders WHERE id IN (7, 8) ORDER BY id"

step "Two writers change the same row: the second gets the named conflict"
run "BEGIN; UPDATE orders SET amount = 10 WHERE id = 9; PREPARE TRANSACTION 'writer_c'"
run "BEGIN; DELETE FROM orders WHERE id = 9; PREPARE TRANSACTION 'writer_d'"
run "COMMIT PREPARED 'writer_c'"
run "COMMIT PREPARED 'writer_d'"

step "History of the table"
run "DESCRIBE HISTORY orders LIMIT 3"

step "Errors are named"
run "SELECT nope FROM range(3)"
run "SELECT CAST('abc' AS INT)"

printf '\nDemo warehouse: %s\n' "$wh"
