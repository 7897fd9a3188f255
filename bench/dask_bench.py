#!/usr/bin/env python3
"""shoal.dask on a LocalCluster (2 worker processes x 1 thread) against single-process shoal
with 2 threads, on the scan benchmarks' lineitem-like table (bench/lineitem_gen.sh, ROWS rows,
default 6M = TPC-H SF 1's lineitem count, in 8 commits = 8 files):

- a selective filter with a projection: read_table(columns, filter) vs SELECT ... WHERE;
- a full-column aggregate: sql("SELECT ... GROUP BY") vs the same SQL;
- a write of 8 partitions x WRITE_ROWS rows from Dask into a new table vs one CTAS of the same
  rows from the registered DataFrame.

Prints best-of-3 times and the ratios (goal for the reads: at most 1.15x). Dask's own
dd.read_parquet is not compared: it needs pyarrow or fastparquet, not packaged for Debian 12.

    make python && PYTHONPATH=build/python /usr/bin/python3 bench/dask_bench.py [ROWS [WRITE_ROWS]]
"""

import os
import re
import sys
import tempfile
import time

import pandas as pd
import dask.dataframe as dd
from distributed import Client, LocalCluster

import shoal
import shoal.dask

ROWS = int(sys.argv[1]) if len(sys.argv) > 1 else 6_000_000
WRITE_ROWS = int(sys.argv[2]) if len(sys.argv) > 2 else 500_000
FILES = 8
REPEAT = 3


def generator_sql(begin, end):
    text = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "lineitem_gen.sh")).read()
    gen = re.search(r'GEN="(.*?)"\s*$', text, re.S).group(1)
    return gen.replace("FROM range($ROWS) r(i)", "FROM range(%d, %d) r(i)" % (begin, end))


def best(f):
    times, out = [], None
    for _ in range(REPEAT):
        start = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - start)
    return min(times), out


def main():
    with tempfile.TemporaryDirectory() as tmp:
        wh = os.path.join(tmp, "wh")
        con = shoal.connect(wh, threads=2)
        step = ROWS // FILES
        con.sql("CREATE TABLE lineitem AS " + generator_sql(0, step))
        for k in range(1, FILES):
            con.sql("INSERT INTO lineitem " + generator_sql(k * step, ROWS if k == FILES - 1 else (k + 1) * step))
        uri = os.path.join(wh, "lineitem")
        where = "l_shipdate = DATE '1995-03-15'"
        agg = ("SELECT l_returnflag, l_linestatus, count(*) AS n, sum(l_quantity) AS q, avg(l_discount) AS d,"
               " max(l_extendedprice) AS m FROM lineitem GROUP BY l_returnflag, l_linestatus")
        frame = pd.DataFrame({"k": range(WRITE_ROWS * 8), "v": [i * 0.5 for i in range(WRITE_ROWS * 8)],
                              "s": ["s%d" % (i % 1000) for i in range(WRITE_ROWS * 8)]})
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster, \
                Client(cluster):
            single = {}
            dask = {}
            single["filter+projection"] = best(
                lambda: con.sql("SELECT l_orderkey, l_extendedprice FROM lineitem WHERE " + where).df())
            dask["filter+projection"] = best(
                lambda: shoal.dask.read_table(uri, columns=["l_orderkey", "l_extendedprice"], filter=where,
                                              split_bytes=1).compute())
            single["aggregate"] = best(lambda: con.sql(agg).df())
            dask["aggregate"] = best(lambda: shoal.dask.sql(uri, agg, split_bytes=1).compute())
            assert len(single["filter+projection"][1]) == len(dask["filter+projection"][1])
            assert sorted(single["aggregate"][1]["n"]) == sorted(dask["aggregate"][1]["n"].tolist())
            runs = iter(range(100))

            def ctas():
                con.register("frame", frame)
                con.sql("CREATE TABLE ctas_%d AS SELECT * FROM frame" % next(runs))
                con.unregister("frame")

            ddf = dd.from_pandas(frame, npartitions=8).persist()
            single["write 8 partitions"] = best(ctas)
            dask["write 8 partitions"] = best(
                lambda: shoal.dask.write_table(ddf, os.path.join(tmp, "written_%d" % next(runs))))
        print("dask_bench: lineitem %d rows in %d files; LocalCluster 2 processes x 1 thread vs one process with"
              " 2 threads; best of %d" % (ROWS, FILES, REPEAT))
        print("  %-22s %10s %10s %7s" % ("", "shoal", "shoal.dask", "ratio"))
        for name in single:
            print("  %-22s %9.3fs %9.3fs %6.2fx" % (name, single[name][0], dask[name][0],
                                                   dask[name][0] / single[name][0]))
        print("  (write: %d rows; reads goal <= 1.15x)" % (WRITE_ROWS * 8))
        con.close()


if __name__ == "__main__":
    main()
