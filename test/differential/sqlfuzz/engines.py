"""The engines a query runs on: shoal in-process through its Python module (one connection with
the defaults, one with the optimizer's rewrites and the execution-level shortcuts off) and
DuckDB in a persistent node process (tools/duckdb/duckserve.mjs). Results come back as
(error, rows) with values normalized by compare.normalize_*."""
import json
import os
import shutil
import subprocess
import tempfile
import threading

from . import compare

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
DUCK_DIR = os.path.join(ROOT, "build", "duckdb")

QUERY_SECONDS = 20
TIMEOUT = "TIMEOUT"  # run()'s error when the query ran past QUERY_SECONDS (not a finding)

# The reference connection: every rewrite and shortcut the engine may take, off.
REFERENCE_SETTINGS = ["SET shoal.optimizer = off", "SET shoal.prewhere = off", "SET shoal.runtime_filters = off",
                      "SET shoal.coded_strings = off"]


def missing():
    """Why the engines cannot run (None when they can)."""
    try:
        import shoal  # noqa: F401
    except ImportError as e:
        return f"the shoal Python module is not importable (make python; PYTHONPATH=build/python): {e}"
    if not os.path.exists(os.path.join(DUCK_DIR, "node_modules", "@duckdb", "node-api")):
        return "DuckDB is not installed in build/duckdb (make deps)"
    for script in ("duckserve.mjs", "json_value.mjs"):
        if not os.path.exists(os.path.join(DUCK_DIR, script)):
            return f"build/duckdb/{script} is missing (make deps copies tools/duckdb/*.mjs)"
    if shutil.which("node") is None:
        return "node is not on PATH"
    return None


class Shoal:
    """A fresh warehouse with the fuzz tables; `run(sql, reference)` on either connection."""

    def __init__(self, threads=2):
        import shoal
        self.dir = tempfile.mkdtemp(prefix="sqlfuzz-")
        self.con = shoal.connect(os.path.join(self.dir, "wh"), threads=threads)
        self.ref = self.con.cursor()
        for c in (self.con, self.ref):
            c.sql("SET TIME ZONE 'UTC'")  # TIMESTAMP values compare with DuckDB's zone-less ones
        for s in REFERENCE_SETTINGS:
            self.ref.sql(s)

    def load(self, statements):
        for t in ("t0", "t1", "t2", "t3"):
            self.con.sql(f"DROP TABLE IF EXISTS {t}")
        for s in statements:
            self.con.sql(s)

    def run(self, sql, reference=False):
        con = self.ref if reference else self.con
        watchdog = threading.Timer(QUERY_SECONDS, con.interrupt)  # a runaway query is skipped
        watchdog.start()
        try:
            rel = con.sql(sql)
            return None, [tuple(compare.normalize_shoal(v) for v in row) for row in rel.fetchall()]
        except Exception as e:  # the module's exception classes: shoal.Error subclasses
            if type(e).__name__ == "InterruptException":
                return TIMEOUT, None
            return f"{type(e).__name__}: {e}", None
        finally:
            watchdog.cancel()

    def close(self):
        self.ref.close()
        self.con.close()
        shutil.rmtree(self.dir, ignore_errors=True)


class DuckDB:
    def __init__(self):
        self.proc = subprocess.Popen(["node", os.path.join(DUCK_DIR, "duckserve.mjs"), "--threads", "1"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=DUCK_DIR)

    def request(self, sql):
        self.proc.stdin.write(json.dumps({"sql": sql}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("duckserve.mjs exited")
        return json.loads(line)

    def load(self, statements):
        for t in ("t0", "t1", "t2", "t3"):
            self.request(f"DROP TABLE IF EXISTS {t}")
        for s in statements:
            a = self.request(s)
            if not a["ok"]:
                raise RuntimeError(f"DuckDB rejected the data statement {s[:200]}: {a['error']}")

    def run(self, sql):
        a = self.request(sql)
        if not a["ok"]:
            return a["error"], None
        return None, [tuple(compare.normalize_duck(v, t) for v, t in zip(row, a["types"])) for row in a["rows"]]

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()
