-- Selective-scan benchmark queries (bench/scan_bench.sh). One query per line:
--   name|kind|query
-- `kind`: sel (selective: the Prewhere >= 3x goal applies), sorted (SELECT * with a 0.1% filter
-- on the sorted copy: the <= 5% bytes goal applies), full (the filter keeps most rows / a full
-- scan). `{T}` is replaced by the table: li_sorted for `sorted`, li otherwise — a shoal Delta
-- table, or read_parquet('<DuckDB's files>') for DuckDB and shoal-on-Parquet.
-- The same text runs in DuckDB and shoal. A query may end in `|cols`: the columns it reads (`*`:
-- all). For a `full` query their single-thread decompression+decode time on DuckDB's file
-- (bench_parquet_rw read, divided by the threads) is the "decode limit" its time is compared with
-- (goal: within 2x). For a `sel` query their decompression time alone on the Delta table's files
-- (bench_parquet_rw decompress, divided by the threads) bounds what Prewhere can gain when every
-- page holds a survivor: off / that time, printed as `pw≥3x(≤bound)`.
point|sel|SELECT * FROM {T} WHERE l_skey = 'k0421'|*
point_sorted|sorted|SELECT * FROM {T} WHERE l_skey = 'k0421'
range|sel|SELECT * FROM {T} WHERE l_partkey BETWEEN 100000 AND 100199|*
reference|sel|SELECT l_orderkey FROM {T} WHERE l_shipdate = DATE '1995-06-17' AND l_env = 'test'|l_orderkey,l_shipdate,l_env
in_list|sel|SELECT l_orderkey, l_extendedprice, l_comment FROM {T} WHERE l_skey IN ('k0001', 'k0002', 'k0003', 'k0004', 'k0005')|l_orderkey,l_extendedprice,l_comment,l_skey
is_null|sel|SELECT l_orderkey, l_shipmode, l_comment FROM {T} WHERE l_note IS NULL|l_orderkey,l_shipmode,l_comment,l_note
keep90|full|SELECT count(*) AS n, sum(l_extendedprice) AS s, max(l_comment) AS m FROM {T} WHERE l_discount < 0.10|l_discount,l_extendedprice,l_comment
group_by|full|SELECT l_returnflag, l_linestatus, count(*) AS n, sum(l_quantity) AS q, sum(l_extendedprice) AS p, min(l_shipdate) AS d FROM {T} GROUP BY l_returnflag, l_linestatus ORDER BY l_returnflag, l_linestatus|l_returnflag,l_linestatus,l_quantity,l_extendedprice,l_shipdate
