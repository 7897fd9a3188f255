# The scan benchmarks' lineitem-like table (sourced by scan_bench.sh and s3_bench.sh; needs
# ROWS). GEN is one SELECT that DuckDB and shoal both run: list_extract is 1-based in both (a
# subscript is not: shoal's a[i] is Spark's 0-based one). l_skey: 1000 values, 0.1% of rows
# each, scattered; l_note: NULL in 0.1% of rows; l_env: 4 values; l_comment: nearly unique.
GEN="SELECT
  (i // 4)::BIGINT AS l_orderkey, ((i * 7919) % 200000)::BIGINT AS l_partkey,
  ((i * 31) % 10000)::BIGINT AS l_suppkey, (i % 4 + 1)::INTEGER AS l_linenumber,
  ((i % 50) + 1)::DECIMAL(15,2) AS l_quantity, (((i * 13) % 10000000) / 100.0)::DECIMAL(15,2) AS l_extendedprice,
  ((i % 11) / 100.0)::DECIMAL(15,2) AS l_discount, ((i % 9) / 100.0)::DECIMAL(15,2) AS l_tax,
  list_extract(['A','N','R'], i % 3 + 1) AS l_returnflag, list_extract(['O','F'], i % 2 + 1) AS l_linestatus,
  (DATE '1992-01-01' + (i % 2500)::INTEGER) AS l_shipdate,
  (DATE '1992-01-01' + ((i + 30) % 2500)::INTEGER) AS l_commitdate,
  list_extract(['TRUCK','MAIL','REG AIR','AIR','FOB','RAIL','SHIP'], i % 7 + 1) AS l_shipmode,
  list_extract(['prod','dev','stage','test'], (i // 7) % 4 + 1) AS l_env,
  'k' || lpad(((i * 6151 + 17) % 1000)::VARCHAR, 4, '0') AS l_skey,
  CASE WHEN (i * 37) % 1000 = 7 THEN NULL ELSE 'note ' || (i % 97)::VARCHAR END AS l_note,
  substr('carefully final deposits detect slyly agai quickly regular packages', 1 + (i * 7) % 20, 10 + i % 25)
    || ' ' || ((i * 2654435761) % 1000003)::VARCHAR AS l_comment
FROM range($ROWS) r(i)"
