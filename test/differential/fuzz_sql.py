#!/usr/bin/env python3
"""Differential SQL fuzzing of shoal against DuckDB and against itself (sqlfuzz/README.md).

  fuzz_sql.py --seeds 2-4,6 --queries 100   fixed seeds (make test runs this)
  fuzz_sql.py --seconds 600 [--first-seed N]  consecutive seeds until the time is up (make reliability)
  fuzz_sql.py --seed 7 --query 42           one query again: prints its finding, minimized

Needs the shoal Python module (PYTHONPATH=build/python) and DuckDB in build/duckdb (make deps).
Without them: exit 77 (skipped), or 1 under CI=true. Exit 1 when anything was found.
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from sqlfuzz import engines  # noqa: E402
from sqlfuzz.runner import Runner  # noqa: E402


def seed_list(text):
    out = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out += list(range(int(a), int(b or a) + 1))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="1-3", help="seeds, e.g. 1-3 or 4,9")
    ap.add_argument("--queries", type=int, default=150, help="queries per seed")
    ap.add_argument("--seconds", type=float, default=0, help="run consecutive seeds for this long")
    ap.add_argument("--first-seed", type=int, default=int(time.time()) % 100000, help="with --seconds")
    ap.add_argument("--seed", type=int, help="with --query: one query of one seed")
    ap.add_argument("--query", type=int)
    ap.add_argument("--no-minimize", action="store_true")
    ap.add_argument("--threads", type=int, default=2, help="shoal's threads")
    ap.add_argument("--show-errors", action="store_true", help="print the queries both engines reject")
    args = ap.parse_args()

    why = engines.missing()
    if why:
        print(f"sqlfuzz: cannot run: {why}")
        return 1 if os.environ.get("CI", "").lower() == "true" else 77

    shoal, duck = engines.Shoal(args.threads), engines.DuckDB()
    runner = Runner(shoal, duck, minimize_findings=not args.no_minimize)
    runner.show_errors = args.show_errors
    found = []
    try:
        if args.seed is not None:
            found = runner.run_seed(args.seed, 0, only=args.query if args.query is not None else 0)
        elif args.seconds > 0:
            deadline, seed = time.time() + args.seconds, args.first_seed
            while time.time() < deadline:
                found += runner.run_seed(seed, args.queries, deadline=deadline)
                seed += 1
            print(f"sqlfuzz: seeds {args.first_seed}-{seed - 1}")
        else:
            for seed in seed_list(args.seeds):
                found += runner.run_seed(seed, args.queries)
    finally:
        shoal.close()
        duck.close()
        print(runner.stats.summary(), flush=True)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
