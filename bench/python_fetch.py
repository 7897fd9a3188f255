#!/usr/bin/env python3
"""Python fetch overhead: a 10M-row, 4-column result through fetchnumpy() against the same
query with its values read in C++ (Connection._query_touch: the C++ API's QueryResult, every
fixed-width value summed), in the same process. Prints both times and their ratio (goal: at
most 1.3x). Run with Debian's interpreter and the built module:

    make python && PYTHONPATH=build/python /usr/bin/python3 bench/python_fetch.py [ROWS]
"""

import os
import sys
import tempfile
import time

import shoal

ROWS = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000
REPEAT = 5
QUERY = ("SELECT i, i * 2 AS b, CAST(i AS DOUBLE) / 3 AS c, i %% 1000 AS d FROM range(%d) r(i)" % ROWS)


def best(f):
    times = []
    for _ in range(REPEAT):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    with tempfile.TemporaryDirectory() as wh, shoal.connect(os.path.join(wh, "wh")) as con:
        values = con._query_touch(QUERY)
        assert values == 4 * ROWS, values
        cpp = best(lambda: con._query_touch(QUERY))

        def fetch():
            cols = con.sql(QUERY).fetchnumpy()
            assert len(cols["d"]) == ROWS

        py = best(fetch)
        fetch_times = []
        for _ in range(REPEAT):
            rel = con.sql(QUERY)
            start = time.perf_counter()
            rel.fetchnumpy()
            fetch_times.append(time.perf_counter() - start)
        fetch_only = min(fetch_times)
    print("python_fetch: %d rows x 4 columns (BIGINT, BIGINT, DOUBLE, BIGINT), best of %d" % (ROWS, REPEAT))
    print("  C++ (query + read every value)   %8.3f s" % cpp)
    print("  Python (query + fetchnumpy)      %8.3f s   %.2fx the C++ time (goal <= 1.3x)" % (py, py / cpp))
    print("  fetchnumpy alone (after the query) %6.3f s   %.0f M values/s" % (fetch_only, 4 * ROWS / fetch_only / 1e6))


if __name__ == "__main__":
    main()
