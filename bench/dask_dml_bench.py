#!/usr/bin/env python3
"""Distributed DML with shoal.dask on a LocalCluster (2 worker processes x 1 thread) against
single-process shoal with 2 threads, on twin tables of ROWS rows (default 4M) in 8 files with
deletion vectors: the same UPDATE and DELETE (1% of the rows each, every file touched) run
locally on one table and by shoal.dask.execute on the other. Each round changes other rows
(id % 100 = round), so every run does the same work; prints best-of-3 times and the ratios.

    make python && PYTHONPATH=build/python /usr/bin/python3 bench/dask_dml_bench.py [ROWS]
"""

import sys
import tempfile
import time

from distributed import Client, LocalCluster

import shoal
import shoal.dask

ROWS = int(sys.argv[1]) if len(sys.argv) > 1 else 4_000_000
FILES = 8
REPEAT = 3
STATEMENTS = {
    "UPDATE 1%": "UPDATE {t} SET v = v + 1, s = upper(s) WHERE id % 100 = {k}",
    "DELETE 1%": "DELETE FROM {t} WHERE id % 100 = {k} + 50",
}


def main():
    wh = tempfile.mkdtemp(prefix="shoal-dask-dml-")
    con = shoal.connect(wh, threads=2)
    for name in ("local_t", "dask_t"):
        con.sql("CREATE TABLE %s (id BIGINT, v DOUBLE, s STRING) "
                "TBLPROPERTIES ('delta.enableDeletionVectors' = 'true')" % name)
        per = ROWS // FILES
        for f in range(FILES):
            con.sql("INSERT INTO %s SELECT id, id * 0.5, 's' || CAST(id %% 1000 AS STRING) FROM range(%d, %d) AS r(id)"
                    % (name, f * per, (f + 1) * per))
    uri = wh + "/dask_t"
    print("rows %d in %d files; best of %d" % (ROWS, FILES, REPEAT))
    print("| statement | shoal, 1 process x 2 threads | shoal.dask.execute, 2 processes x 1 thread | ratio |")
    print("|---|---|---|---|")
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=":0") as cluster, Client(cluster) as client:
        shoal.dask.execute(uri, "DELETE FROM dask_t WHERE id < 0", client=client)  # warm the workers
        for label, text in STATEMENTS.items():
            local, dist = [], []
            for k in range(REPEAT):
                t = time.perf_counter()
                con.sql(text.format(t="local_t", k=k))
                local.append(time.perf_counter() - t)
                t = time.perf_counter()
                shoal.dask.execute(uri, text.format(t="dask_t", k=k), client=client, split_bytes=1)
                dist.append(time.perf_counter() - t)
            print("| %s | %.3f s | %.3f s | %.2f |" % (label, min(local), min(dist), min(dist) / min(local)))
    same = con.sql("SELECT count(*), sum(v), count(DISTINCT s) FROM local_t").fetchall() == \
        con.sql("SELECT count(*), sum(v), count(DISTINCT s) FROM dask_t").fetchall()
    print("tables equal:", same)


if __name__ == "__main__":
    main()
