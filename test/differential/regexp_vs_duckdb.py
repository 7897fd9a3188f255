#!/usr/bin/env python3
"""Compares shoal's regular-expression functions with DuckDB's where their semantics agree.

Random strings against a fixed list of patterns that mean the same in Java and RE2 syntax and
have no backslashes (shoal's string literals take escapes, DuckDB's do not):
  rlike(s, p)                   = regexp_matches(s, p)
  regexp_extract(s, p, 1)       = regexp_extract(s, p, 1)
  regexp_replace(s, p, 'X')     = regexp_replace(s, p, 'X', 'g')   (patterns that never match empty:
                                  RE2's global replace skips an empty match right after a match, Java does not)
  regexp_extract_all(s, p, 1)   = regexp_extract_all(s, p, 1)      (same restriction)
Usage: regexp_vs_duckdb.py [BUILD_DIR]  (default build/release; needs BUILD_DIR/../duckdb/duckq.mjs)
Exit status 1 and the differing rows when the engines disagree.
"""
import csv
import io
import json
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "release")
DUCKQ = os.path.join(ROOT, "build", "duckdb", "duckq.mjs")

# (pattern, may match the empty string)
PATTERNS = [
    ("(a+)", False), ("(a|b)c", False), ("^(ab)", False), ("(b)$", False), ("([0-9]+)-([0-9]+)", False),
    ("(a)?b", False), ("(a*)", True), ("x*(b)?", True), ("(?i)(A)", False), ("([^a]+)", False),
    ("(.)\\.", False), ("(a.c)", False), ("(ab|a)(bc|c)?", False), ("([ab]{2,3})", False), ("()", True),
]


def rows():
    rng = random.Random(29)
    alphabet = "ab c-1.A\u00e9"
    out = []
    for i in range(1500):
        s = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        p, empty = PATTERNS[i % len(PATTERNS)]
        out.append((i, s, p, empty))
    return out


def lit(s):
    return "'" + s.replace("'", "''") + "'"


def query(data, shoal):
    values = ", ".join(f"({i}, {lit(s)}, {lit(p.replace(chr(92), chr(92) * 2) if shoal else p)}, {str(e).lower()})"
                       for i, s, p, e in data)
    # NULL shows as ~N (shoal's CSV prints it as an empty field); a group that takes no part is
    # '' in Spark's regexp_extract_all and NULL in DuckDB's.
    if shoal:
        cols = ["CAST(rlike(s, p) AS STRING)", "regexp_extract(s, p, 1)",
                "CASE WHEN e THEN NULL ELSE regexp_replace(s, p, 'X') END",
                "CASE WHEN e THEN NULL ELSE array_join(regexp_extract_all(s, p, 1), '|') END"]
    else:
        cols = ["CAST(regexp_matches(s, p) AS VARCHAR)", "regexp_extract(s, p, 1)",
                "CASE WHEN e THEN NULL ELSE regexp_replace(s, p, 'X', 'g') END",
                "CASE WHEN e THEN NULL ELSE array_to_string("
                "list_transform(regexp_extract_all(s, p, 1), v -> coalesce(v, '')), '|') END"]
    cols = ", ".join(f"coalesce({c}, '~N')" for c in cols)
    return f"SELECT id, {cols} FROM (VALUES {values}) AS t(id, s, p, e) ORDER BY id"


def run_shoal(sql):
    with tempfile.TemporaryDirectory() as wh:
        out = subprocess.run([os.path.join(BUILD, "shoal"), wh, "--format", "csv", "-c", sql],
                             capture_output=True, text=True, check=True).stdout
    result = []
    for r in list(csv.reader(io.StringIO(out)))[1:]:
        result.append(r)
    return result


def run_duckdb(sql):
    out = subprocess.run(["node", DUCKQ, sql], capture_output=True, text=True, check=True).stdout
    result = []
    for line in out.splitlines():
        obj = json.loads(line)
        vals = list(obj.values())
        result.append([str(v) for v in vals])
    return result


def main():
    data = rows()
    a = run_shoal(query(data, True))
    b = run_duckdb(query(data, False))
    bad = 0
    for (i, s, p, _), x, y in zip(data, a, b):
        if x != y:
            bad += 1
            print(f"row {i}: s={s!r} p={p!r}\n  shoal:  {x}\n  duckdb: {y}")
    print(f"{len(data)} rows, {bad} differ")
    return 1 if bad or len(a) != len(b) else 0


if __name__ == "__main__":
    sys.exit(main())
