"""Runs seeds: makes the tables, loads them into both engines, generates and checks queries,
minimizes every finding and prints how to reproduce it."""
import random
import sys
import time
import traceback

from . import engines, minimize, oracles, schema
from .generator import Gen

QUERY_SEED_STRIDE = 1_000_003


def query_rng(seed, index):
    return random.Random(seed * QUERY_SEED_STRIDE + index)


class Stats:
    def __init__(self):
        self.queries = self.checks = self.tlp = 0
        self.errors_both = self.timeouts = 0
        self.findings = {}
        self.start = time.time()

    def add(self, finding):
        self.findings[finding.kind] = self.findings.get(finding.kind, 0) + 1

    def summary(self):
        secs = max(time.time() - self.start, 1e-9)
        kinds = ", ".join(f"{k}={v}" for k, v in sorted(self.findings.items())) or "none"
        return (f"sqlfuzz: {self.queries} queries ({self.tlp} with a TLP check), {self.errors_both} rejected by "
                f"both engines, {self.timeouts} skipped after {engines.QUERY_SECONDS} s, {sum(self.findings.values())} findings ({kinds}) in {secs:.1f} s = "
                f"{self.queries * 3600 / secs:.0f} queries/hour")


class Runner:
    def __init__(self, shoal, duck, minimize_findings=True, out=sys.stdout):
        self.shoal, self.duck, self.minimize, self.out = shoal, duck, minimize_findings, out
        self.show_errors = False
        self.stats = Stats()
        self.tables = None

    def load(self, tables):
        self.tables = tables
        self.shoal.load(schema.create_statements(tables, "shoal"))
        self.duck.load(schema.create_statements(tables, "duck"))

    def run_seed(self, seed, queries, only=None, deadline=None):
        """Checks queries 0..queries-1 (or only `only`) of `seed`; returns its findings."""
        self.load(schema.random_tables(random.Random(seed)))
        found = []
        for i in ([only] if only is not None else range(queries)):
            if deadline is not None and time.time() > deadline:
                break
            found += self.check_query(seed, i)
        return found

    def check_query(self, seed, i):
        gen = Gen(query_rng(seed, i), self.tables)
        try:
            q = gen.query()
        except Exception:  # a bug of the generator: reported, and the campaign goes on
            f = oracles.Finding("generator", traceback.format_exc(), "")
            self.stats.add(f)
            self.out.write(f"\n=== sqlfuzz finding [generator] seed {seed} query {i}\n{f.detail}\n")
            return [f]
        self.stats.queries += 1
        findings, base = oracles.check_engines(q, self.shoal, self.duck)
        if base[0] == engines.TIMEOUT:
            self.stats.timeouts += 1
        elif base[0] is not None and not findings:
            self.stats.errors_both += 1
            if self.show_errors:
                self.out.write(f"both engines reject seed {seed} query {i}: {base[0]}\n  {q.render('shoal')}\n")
        plan = oracles.tlp_plan(q, gen) if base[0] is None else None
        if plan is not None:
            self.stats.tlp += 1
            findings += oracles.tlp_eval(q, plan[0], plan[1], self.shoal)
        reported = []
        for f in findings[:1]:  # one finding per query: the others usually share its cause
            self.stats.add(f)
            self.report(seed, i, q, f, plan)
            reported.append(f)
        return reported

    def fails_like(self, kind, plan):
        def fails(cand):
            if kind == "tlp":
                return bool(oracles.tlp_eval(cand, plan[0], plan[1], self.shoal))
            found, _ = oracles.check_engines(cand, self.shoal, self.duck, use_duck=kind != "optimizer")
            return any(f.kind == kind for f in found)
        return fails

    def report(self, seed, i, q, finding, plan):
        w = self.out.write
        w(f"\n=== sqlfuzz finding [{finding.kind}] seed {seed} query {i}\n{finding.detail}\n")
        w(f"query (shoal): {q.render('shoal')}\n")
        tables = self.tables
        if self.minimize:
            fails = self.fails_like(finding.kind, plan)
            q = minimize.minimize_query(q, fails)
            original = self.tables

            def rows_fail(ts):
                self.load(ts)
                return fails(q)
            tables = minimize.minimize_rows(self.tables, rows_fail)
            self.load(tables)
            again = self.fails_like(finding.kind, plan)(q)
            if not again:  # should not happen; keep the unminimized data
                tables = original
                self.load(tables)
            found, _ = oracles.check_engines(q, self.shoal, self.duck)
            detail = next((f.detail for f in found if f.kind == finding.kind), None)
            if finding.kind == "tlp":
                t = oracles.tlp_eval(q, plan[0], plan[1], self.shoal)
                detail = t[0].detail if t else None
            w(f"minimized: {detail}\n")
            self.load(original)
        w("-- data (shoal dialect):\n")
        for s in schema.create_statements(tables, "shoal"):
            w(s + ";\n")
        w(f"-- query (shoal):\n{q.render('shoal')};\n-- query (DuckDB):\n{q.render('duck')};\n")
        if finding.kind == "tlp":
            w(f"-- TLP partitions the {plan[0].upper()} by p = {plan[1].render('shoal')}\n")
        w(f"-- reproduce: PYTHONPATH=build/python /usr/bin/python3 test/differential/fuzz_sql.py --seed {seed} "
          f"--query {i}\n")
        self.out.flush()
