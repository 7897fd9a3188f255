#!/usr/bin/env python3
"""Writes the conflict-matrix scripts test/sql/conflicts/{row_level,file_level}_*.test.

Every cell of both conflict matrices in DESIGN.md section 1, for both isolation levels, both
commit orders, a partitioned and an unpartitioned table: two connections each BEGIN, run one
statement and PREPARE TRANSACTION; then the two prepared transactions commit in the given order.
The first always commits; the second commits or fails with the exact exception name, and the
final table contents are checked against a model (rows removed/added by each committed
statement, judged against the snapshot both transactions read).

Expected outcomes come from DESIGN.md section 1 and doc/concurrency.md (the checker's order
and exception names), not from what shoal does. Run from the repository root:
    python3 test/sql/conflicts/generate.py
"""
import os
from collections import Counter

OUT = os.path.dirname(os.path.abspath(__file__))

DDA = "ConcurrentDeleteDeleteException"
DRA = "ConcurrentDeleteReadException"
APP = "ConcurrentAppendException"

# The three table setups: the row-level matrix, and the file-level matrix with and without DVs.
SETUPS = {
    "row": ("row-level concurrency (deletion vectors on)", "'delta.enableDeletionVectors' = 'true'"),
    "fdv": ("file level with deletion vectors (shoal.rowLevelConcurrency = false)",
            "'delta.enableDeletionVectors' = 'true', 'shoal.rowLevelConcurrency' = 'false'"),
    "fno": ("file level without deletion vectors", "'delta.enableDeletionVectors' = 'false'"),
}
LEVELS = ["WriteSerializable", "Serializable"]
LAYOUTS = ["unpartitioned", "partitioned"]

# Seed: two INSERTs (two data files unpartitioned, four partitioned: one per partition each).
SEED = [
    [(1, 10, "a"), (2, 20, "a"), (5, 50, "b"), (6, 60, "b")],
    [(3, 30, "a"), (4, 40, "a"), (7, 70, "b"), (8, 80, "b")],
]


def values(rows):
    return ", ".join(f"({i}, {v}, '{p}')" for i, v, p in rows)


class Op:
    """One statement of one transaction; effect(snapshot) -> (rows removed, rows added)."""

    def __init__(self, label, sql, kind, effect=lambda rows: ([], [])):
        self.label, self.sql, self.kind, self.effect = label, sql, kind, effect


def insert(rows):
    return Op(f"INSERT {values(rows)}", "INSERT INTO {t} VALUES " + values(rows), "insert",
              lambda snap: ([], list(rows)))


def update(where, pred):
    def eff(snap):
        hit = [r for r in snap if pred(r)]
        return hit, [(i, v + 100, p) for i, v, p in hit]
    return Op(f"UPDATE ... WHERE {where}", "UPDATE {t} SET v = v + 100 WHERE " + where, "dml", eff)


def delete(where, pred):
    def eff(snap):
        return [r for r in snap if pred(r)], []
    return Op(f"DELETE ... WHERE {where}", "DELETE FROM {t} WHERE " + where, "dml", eff)


def merge(key, new_v, partition=None):
    on = "{t}.id = s.id" + (f" AND {{t}}.p = '{partition}'" if partition else "")

    def eff(snap):
        hit = [r for r in snap if r[0] == key and (partition is None or r[2] == partition)]
        return hit, [(i, new_v, p) for i, v, p in hit]
    label = f"MERGE ON id = {key}" + (f" AND p = '{partition}'" if partition else "")
    return Op(label, f"MERGE INTO {{t}} USING (SELECT {key} AS id, {new_v} AS v) AS s ON {on} "
              "WHEN MATCHED THEN UPDATE SET v = s.v", "dml", eff)


def optimize(where=None, zorder=None):
    sql = "OPTIMIZE {t}" + (f" WHERE {where}" if where else "") + (f" ZORDER BY ({zorder})" if zorder else "")
    return Op(sql.replace("{t}", "t"), sql, "zorder" if zorder else "optimize")


def reorg(where=None):
    sql = "REORG TABLE {t}" + (f" WHERE {where}" if where else "") + " APPLY (PURGE)"
    return Op(sql.replace("{t}", "t"), sql, "reorg")


def apply(snap, removed, added):
    c = Counter(snap)
    for r in removed:
        assert c[r] > 0, r
        c[r] -= 1
    c.update(added)
    return sorted(c.elements())


class Case:
    def __init__(self, cell, variant, a, b, expect, pre=None, props_extra="", skip=None, layouts=None):
        """expect(setup, level, layout, order) -> None (commits) or the exception name of the
        second commit; order is "ab" or "ba". `pre`: statements run after the seed."""
        self.cell, self.variant, self.a, self.b, self.expect = cell, variant, a, b, expect
        self.pre, self.props_extra, self.skip = pre or [], props_extra, skip
        self.layouts = layouts or LAYOUTS


class Writer:
    def __init__(self, title, setup_keys):
        self.lines, self.n, self.title, self.setup_keys = [], 0, title, setup_keys

    def emit(self, *lines):
        self.lines.extend(lines)

    def stmt(self, sql, con=None, error=None):
        head = "statement " + ("error" if error else "ok") + (f" {con}" if con else "")
        self.emit(head, sql)
        if error:
            self.emit("----", error)
        self.emit("")

    def case(self, c, setup, level, layout, order):
        self.n += 1
        t = f"t{self.n}"
        first, second = (c.a, c.b) if order == "ab" else (c.b, c.a)
        expect = c.expect(setup, level, layout, order)
        skip = c.skip(setup, level, layout, order) if c.skip else None
        outcome = "the second commit fails with " + expect if expect else "both commit"
        self.emit(f"# {c.cell} [{c.variant}]: {level}, {layout}; "
                  f"{'A' if order == 'ab' else 'B'} commits first: {outcome}.")
        if skip:
            self.emit(f"# skip reason: {skip}", "mode skip", "")
        props = SETUPS[setup][1] + f", 'delta.isolationLevel' = '{level}'" + c.props_extra
        part = " PARTITIONED BY (p)" if layout == "partitioned" else ""
        self.stmt(f"CREATE TABLE {t} (id BIGINT, v BIGINT, p STRING){part} TBLPROPERTIES ({props})")
        snap = []
        for rows in SEED:
            self.stmt(f"INSERT INTO {t} VALUES {values(rows)}")
            snap = apply(snap, [], rows)
        for op in c.pre:
            self.stmt(op.sql.format(t=t))
            snap = apply(snap, *op.effect(snap))
        names = {}
        for con, op, tag in (("con1", c.a, "a"), ("con2", c.b, "b")):
            names[id(op)] = f"{t}_{tag}"
            self.stmt("BEGIN", con)
            self.stmt(op.sql.format(t=t), con)
            self.stmt(f"PREPARE TRANSACTION '{t}_{tag}'", con)
        self.stmt(f"COMMIT PREPARED '{names[id(first)]}'")
        self.stmt(f"COMMIT PREPARED '{names[id(second)]}'", error=expect)
        final = apply(snap, *first.effect(snap))
        if not expect:
            final = apply(final, *second.effect(snap))
        self.emit("query IIT rowsort", f"SELECT id, v, p FROM {t}", "----")
        self.emit(*[f"{i}\t{v}\t{p}" for i, v, p in final])
        self.emit("")
        if skip:
            self.emit("mode unskip", "")

    def write(self, path, cases):
        head = [f"# {self.title}", "#", "# Generated by test/sql/conflicts/generate.py; edit that, not this file.",
                "# Each case: A runs in con1, B in con2, both BEGIN on the same snapshot and PREPARE;",
                "# then COMMIT PREPARED in the order named. Expected outcomes: DESIGN.md section 1.",
                "require delta-tables", ""]
        for setup in self.setup_keys:
            for c in cases:
                self.emit(f"# ==== {c.cell} [{c.variant}] on {SETUPS[setup][0]}",
                          f"# A = {c.a.label}", f"# B = {c.b.label}", "")
                for level in LEVELS:
                    for layout in c.layouts:
                        for order in ("ab", "ba"):
                            self.case(c, setup, level, layout, order)
        with open(path, "w") as f:
            f.write("\n".join(head + self.lines).rstrip("\n") + "\n")


def row_level(setup):
    return setup == "row"


def has_dv(setup):
    return setup in ("row", "fdv")


# ---------------------------------------------------------------------------------------------
# Cells. In every case "same files" means the statements touch rows of one data file; the
# "other partition" variants use conditions on the partition column p, which separate the
# statements' files only when the table is partitioned by p.

# OPTIMIZE / REORG ... WHERE may name partition columns only.
PARTITIONED_ONLY = ["partitioned"]

ins_a = insert([(9, 90, "a")])
ins_b = insert([(10, 100, "b")])


def never(*_):
    return None


INSERT_INSERT = [
    Case("INSERT x INSERT (cannot conflict)", "same partition", ins_a, insert([(11, 110, "a")]), never),
    Case("INSERT x INSERT (cannot conflict)", "other partition", ins_a, ins_b, never),
]


def dml_insert_expect(match_rows, match_stats):
    """INSERT (B) vs DML (A). Only A can lose, only when B commits first ("ba"), only under
    Serializable (WriteSerializable ignores blind appends), and only when B's added rows match
    A's condition: at row level judged on the rows, at file level on partition values and the
    file's statistics ("can conflict in Serializable")."""
    def f(setup, level, layout, order):
        if order == "ab" or level != "Serializable":
            return None
        hit = match_rows if row_level(setup) else match_stats
        return APP if hit else None
    return f


DML_INSERT = [
    # B adds a row A's condition matches.
    Case("UPDATE/DELETE/MERGE x INSERT", "inserted row matches the DML condition",
         update("id = 1", lambda r: r[0] == 1), insert([(1, 11, "a")]), dml_insert_expect(True, True)),
    Case("UPDATE/DELETE/MERGE x INSERT", "inserted row matches the DML condition",
         delete("v >= 35", lambda r: r[1] >= 35), insert([(0, 35, "a")]), dml_insert_expect(True, True)),
    # B's file statistics overlap A's condition but no added row matches it.
    Case("UPDATE/DELETE/MERGE x INSERT", "inserted file's statistics overlap, no row matches",
         update("id = 1", lambda r: r[0] == 1), insert([(0, 1, "a"), (9, 90, "a")]),
         dml_insert_expect(False, True)),
    # B adds rows in the other partition than A's condition names.
    Case("UPDATE/DELETE/MERGE x INSERT", "other partition",
         delete("p = 'a' AND id = 2", lambda r: r[0] == 2 and r[2] == "a"), insert([(2, 21, "b")]),
         dml_insert_expect(False, False)),
]


def same_row(*_):
    return DDA


def diff_row_same_file(setup, level, layout, order):
    return None if row_level(setup) else DDA


def other_partition(setup, level, layout, order):
    # Unpartitioned, rows 1 and 5 share a data file.
    return None if row_level(setup) or layout == "partitioned" else DDA


DML_DML = [
    Case("UPDATE/DELETE/MERGE x UPDATE/DELETE/MERGE", "same row",
         update("id = 1", lambda r: r[0] == 1), delete("id = 1", lambda r: r[0] == 1), same_row),
    Case("UPDATE/DELETE/MERGE x UPDATE/DELETE/MERGE", "same row",
         merge(2, 222), update("id = 2", lambda r: r[0] == 2), same_row),
    Case("UPDATE/DELETE/MERGE x UPDATE/DELETE/MERGE", "different rows of one file",
         delete("id = 1", lambda r: r[0] == 1), update("id = 2", lambda r: r[0] == 2), diff_row_same_file),
    Case("UPDATE/DELETE/MERGE x UPDATE/DELETE/MERGE", "different rows of one file",
         merge(1, 111), delete("id = 2", lambda r: r[0] == 2), diff_row_same_file),
    Case("UPDATE/DELETE/MERGE x UPDATE/DELETE/MERGE", "different rows of one file",
         update("id = 2", lambda r: r[0] == 2), merge(1, 111), diff_row_same_file),
    Case("UPDATE/DELETE/MERGE x UPDATE/DELETE/MERGE", "other partition",
         update("p = 'a' AND id = 1", lambda r: r[0] == 1 and r[2] == "a"),
         delete("p = 'b' AND id = 5", lambda r: r[0] == 5 and r[2] == "b"), other_partition),
    Case("UPDATE/DELETE/MERGE x UPDATE/DELETE/MERGE", "other partition, MERGE with a partition filter",
         merge(1, 111, partition="a"), update("p = 'b' AND id = 6", lambda r: r[0] == 6 and r[2] == "b"),
         other_partition),
]


def compaction_vs_dml(setup, level, layout, order):
    """Plain OPTIMIZE / REORG vs DML: cannot conflict (row level), cannot conflict with deletion
    vectors (file level), otherwise can: both remove the data file."""
    return None if has_dv(setup) else DDA


def compaction_other_partition(setup, level, layout, order):
    if layout == "partitioned":
        return None
    return compaction_vs_dml(setup, level, layout, order)


def zorder_vs_dml(setup, level, layout, order):
    """ZORDER BY vs DML on the same files: can conflict, with or without row-level concurrency
    (the rewrite permutes rows; without row tracking positions cannot be translated)."""
    return DDA


def zorder_other_partition(setup, level, layout, order):
    return None if layout == "partitioned" else DDA


OPTIMIZE_CELLS = [
    Case("OPTIMIZE x INSERT (cannot conflict)", "same partition", optimize(), ins_a, never),
    Case("OPTIMIZE x UPDATE/DELETE/MERGE", "same files",
         optimize(), update("id = 1", lambda r: r[0] == 1), compaction_vs_dml),
    Case("OPTIMIZE x UPDATE/DELETE/MERGE", "same files",
         optimize(), merge(3, 333), compaction_vs_dml),
    Case("OPTIMIZE x UPDATE/DELETE/MERGE", "other partition",
         optimize("p = 'b'"), delete("p = 'a' AND id = 2", lambda r: r[0] == 2 and r[2] == "a"),
         compaction_other_partition, layouts=PARTITIONED_ONLY),
    Case("OPTIMIZE x OPTIMIZE", "same files", optimize(), optimize(), compaction_vs_dml),
]

ZORDER_CELLS = [
    Case("OPTIMIZE ZORDER BY x INSERT (cannot conflict)", "same partition", optimize(zorder="v"), ins_a, never),
    Case("OPTIMIZE ZORDER BY x UPDATE/DELETE/MERGE", "same files",
         optimize(zorder="v"), update("id = 1", lambda r: r[0] == 1), zorder_vs_dml),
    Case("OPTIMIZE ZORDER BY x UPDATE/DELETE/MERGE", "same files",
         optimize(zorder="v"), delete("id = 4", lambda r: r[0] == 4), zorder_vs_dml),
    Case("OPTIMIZE ZORDER BY x UPDATE/DELETE/MERGE", "other partition",
         optimize("p = 'b'", zorder="v"), update("p = 'a' AND id = 1", lambda r: r[0] == 1 and r[2] == "a"),
         zorder_other_partition, layouts=PARTITIONED_ONLY),
    Case("OPTIMIZE ZORDER BY x OPTIMIZE", "same files", optimize(zorder="v"), optimize(), zorder_vs_dml),
    Case("OPTIMIZE ZORDER BY x OPTIMIZE ZORDER BY", "same files", optimize(zorder="v"), optimize(zorder="id"),
         zorder_vs_dml),
]

# With row tracking every row keeps its row id through the ZORDER rewrite (materialized row id
# column), so the deletion vectors are translated through the ids in both commit orders.
ROW_TRACKING = ", 'delta.enableRowTracking' = 'true'"
ROW_TRACKING_CELLS = [
    Case("OPTIMIZE ZORDER BY x UPDATE/DELETE/MERGE", "same files, row tracking on",
         optimize(zorder="v"), update("id = 1", lambda r: r[0] == 1), never, props_extra=ROW_TRACKING),
    Case("OPTIMIZE ZORDER BY x UPDATE/DELETE/MERGE", "same files, row tracking on",
         optimize(zorder="v"), delete("id = 4", lambda r: r[0] == 4), never, props_extra=ROW_TRACKING),
]

# REORG ... APPLY (PURGE) rewrites the files that have deletion vectors: rows 2 and 6 are
# deleted first so that both partitions' first files have one.
PURGE_PRE = [delete("id IN (2, 6)", lambda r: r[0] in (2, 6))]
REORG_CELLS = [
    Case("REORG APPLY (PURGE) x INSERT (cannot conflict)", "same partition", reorg(), ins_a, never, pre=PURGE_PRE),
    Case("REORG APPLY (PURGE) x UPDATE/DELETE/MERGE", "same files",
         reorg(), update("id = 1", lambda r: r[0] == 1), compaction_vs_dml, pre=PURGE_PRE),
    Case("REORG APPLY (PURGE) x UPDATE/DELETE/MERGE", "same files",
         reorg(), merge(5, 555), compaction_vs_dml, pre=PURGE_PRE),
    Case("REORG APPLY (PURGE) x UPDATE/DELETE/MERGE", "other partition",
         reorg("p = 'b'"), delete("p = 'a' AND id = 1", lambda r: r[0] == 1 and r[2] == "a"),
         compaction_other_partition, pre=PURGE_PRE, layouts=PARTITIONED_ONLY),
]

FILES = [
    ("insert", "INSERT x INSERT", INSERT_INSERT),
    ("dml_insert", "UPDATE/DELETE/MERGE x INSERT", DML_INSERT),
    ("dml_dml", "UPDATE/DELETE/MERGE x UPDATE/DELETE/MERGE", DML_DML),
    ("optimize", "OPTIMIZE (bin-packing) x INSERT, DML, OPTIMIZE", OPTIMIZE_CELLS),
    ("zorder", "OPTIMIZE ZORDER BY x INSERT, DML, OPTIMIZE", ZORDER_CELLS),
    ("reorg", "REORG TABLE ... APPLY (PURGE) x INSERT, DML (behaves like OPTIMIZE)", REORG_CELLS),
]


# ---------------------------------------------------------------------------------------------
# Issue #5: the scenarios of Delta's conflict-checker suites, in the project's own words, each
# under both isolation levels and in both commit orders, on table `t (x INT, v STRING)`
# partitioned by x, seeded with two files in x = 1 and one in x = 2.

DSEED = [[(1, "s1")], [(1, "s2")], [(2, "s3")]]


class Scenario:
    def __init__(self, title, a, b, expect, effect_a, effect_b, create=None, seed=None,
                 query="SELECT x, v FROM {t}", types="IT", skip=None, orders=("ab", "ba"), post=None):
        """a, b: (connection settings, statement); expect(level, order) -> None or exception of
        the second commit; effect_x(level) -> (rows removed, rows added) relative to the seed."""
        self.title, self.a, self.b, self.expect = title, a, b, expect
        self.effect_a, self.effect_b = effect_a, effect_b
        self.create = create or ("CREATE TABLE {t} (x INT, v STRING) PARTITIONED BY (x) "
                                 "TBLPROPERTIES ('delta.isolationLevel' = '{level}')")
        self.seed = DSEED if seed is None else seed
        self.query, self.types, self.skip, self.orders = query, types, skip, orders
        self.post = post or []


def write_scenarios(path, title, scenarios):
    w = Writer(title, [])
    n = 0
    for sc in scenarios:
        w.emit(f"# ==== {sc.title}", "")
        for level in LEVELS:
            for order in sc.orders:
                n += 1
                t = f"d{n}"
                expect = sc.expect(level, order)
                outcome = "the second commit fails with " + expect if expect else "both commit"
                w.emit(f"# {sc.title}: {level}; {'A' if order == 'ab' else 'B'} commits first: {outcome}.")
                skip = sc.skip(level, order) if callable(sc.skip) else sc.skip
                if skip:
                    w.emit(f"# skip reason: {skip}", "mode skip", "")
                create = sc.create.format(t=t, level=level)
                if create:
                    w.stmt(create)
                snap = []
                for rows in sc.seed:
                    w.stmt(f"INSERT INTO {t} VALUES " + ", ".join(f"({x}, '{v}')" for x, v in rows))
                    snap = apply(snap, [], rows)
                for con, (settings, sql), tag in (("con1", sc.a, "a"), ("con2", sc.b, "b")):
                    for st in settings:
                        w.stmt(st, con)
                    w.stmt("BEGIN", con)
                    w.stmt(sql.format(t=t), con)
                    w.stmt(f"PREPARE TRANSACTION '{t}_{tag}'", con)
                first, second = ("a", "b") if order == "ab" else ("b", "a")
                w.stmt(f"COMMIT PREPARED '{t}_{first}'")
                w.stmt(f"COMMIT PREPARED '{t}_{second}'", error=expect)
                effects = {"a": sc.effect_a(level), "b": sc.effect_b(level)}
                final = apply(snap, *effects[first])
                if not expect:
                    final = apply(final, *effects[second])
                w.emit(f"query {sc.types} rowsort", sc.query.format(t=t), "----")
                w.emit(*["\t".join(str(c) for c in r) for r in final])
                w.emit("")
                for con, st in sc.post:
                    w.stmt(st, con)
                if skip:
                    w.emit("mode unskip", "")
    with open(path, "w") as f:
        head = [f"# {title}", "#", "# Generated by test/sql/conflicts/generate.py; edit that, not this file.",
                "# Each case: A runs in con1, B in con2, both BEGIN on the same snapshot and PREPARE;",
                "# then COMMIT PREPARED in the order named.", "require delta-tables", ""]
        f.write("\n".join(head + w.lines).rstrip("\n") + "\n")


def adds(*rows):
    return lambda level: ([], list(rows))


def removes(*rows):
    return lambda level: (list(rows), [])


def nothing(level):
    return ([], [])


def ser_only(exc):
    """Conflicts only under Serializable, when B (the add) commits first."""
    return lambda level, order: exc if level == "Serializable" and order == "ba" else None


def when_b_first(exc):
    return lambda level, order: exc if order == "ba" else None


def second_always(exc):
    return lambda level, order: exc


READ_X1 = "INSERT INTO {t} SELECT 9, v FROM {t} WHERE x = 1"   # reads x = 1, adds in x = 9
READ_X1_ROWS = adds((9, "s1"), (9, "s2"))
NOT_BLIND_X1 = "INSERT INTO {t} SELECT 1, 'nb' FROM {t} WHERE x = 2"  # reads x = 2, adds in x = 1
APPEND_SCENARIOS = [
    Scenario("blind append vs blind append (cannot conflict)", ([], "INSERT INTO {t} VALUES (1, 'a')"),
             ([], "INSERT INTO {t} VALUES (1, 'b')"), lambda *_: None, adds((1, "a")), adds((1, "b"))),
    Scenario("disjoint application ids (no conflict)",
             (["SET shoal.txn.appId = 'app-a'", "SET shoal.txn.version = 1"], "INSERT INTO {t} VALUES (3, 'a')"),
             (["SET shoal.txn.appId = 'app-b'", "SET shoal.txn.version = 1"], "INSERT INTO {t} VALUES (3, 'b')"),
             lambda *_: None, adds((3, "a")), adds((3, "b")),
             post=[(c, f"RESET shoal.txn.{k}") for c in ("con1", "con2") for k in ("appId", "version")]),
    Scenario("same application id: the second commit conflicts",
             (["SET shoal.txn.appId = 'app'", "SET shoal.txn.version = 1"], "INSERT INTO {t} VALUES (3, 'a')"),
             (["SET shoal.txn.appId = 'app'", "SET shoal.txn.version = 2"], "INSERT INTO {t} VALUES (3, 'b')"),
             second_always("ConcurrentTransactionException"), adds((3, "a")), adds((3, "b")),
             post=[(c, f"RESET shoal.txn.{k}") for c in ("con1", "con2") for k in ("appId", "version")]),
    Scenario("read x = 1 vs a concurrent non-blind add in x = 1 (conflict)", ([], READ_X1), ([], NOT_BLIND_X1),
             when_b_first(APP), READ_X1_ROWS, adds((1, "nb"))),
    Scenario("read x = 1 vs a concurrent blind append in x = 1 (conflict only under Serializable)",
             ([], READ_X1), ([], "INSERT INTO {t} VALUES (1, 'blind')"), ser_only(APP), READ_X1_ROWS,
             adds((1, "blind"))),
    Scenario("read x = 1 vs a concurrent add in x = 2 (partitioned: no conflict)", ([], READ_X1),
             ([], "INSERT INTO {t} SELECT 2, 'nb' FROM {t} WHERE x = 2"), lambda *_: None, READ_X1_ROWS,
             adds((2, "nb"))),
    Scenario("read the whole table vs a concurrent blind append (conflict only under Serializable)",
             ([], "INSERT INTO {t} SELECT 9, max(v) FROM {t}"), ([], "INSERT INTO {t} VALUES (3, 'new')"),
             ser_only(APP), adds((9, "s3")), adds((3, "new"))),
    Scenario("read the whole table vs a concurrent non-blind add (conflict)",
             ([], "INSERT INTO {t} SELECT 9, max(v) FROM {t}"),
             ([], "INSERT INTO {t} SELECT 3, 'nb' FROM {t} WHERE x = 2"), when_b_first(APP), adds((9, "s3")),
             adds((3, "nb"))),
    Scenario("data-change-free rewrite (OPTIMIZE) vs a concurrent add (no conflict)", ([], "OPTIMIZE {t}"),
             ([], NOT_BLIND_X1), lambda *_: None, nothing, adds((1, "nb"))),
]

FILE_SCENARIOS = [
    Scenario("read x = 1 vs a concurrent delete of the file read (conflict)", ([], READ_X1),
             ([], "DELETE FROM {t} WHERE x = 1"), when_b_first(DRA), READ_X1_ROWS, removes((1, "s1"), (1, "s2"))),
    Scenario("both delete the same file: the second conflicts", ([], "DELETE FROM {t} WHERE x = 2"),
             ([], "DELETE FROM {t} WHERE x = 2"), second_always(DDA), removes((2, "s3")), removes((2, "s3"))),
]

METADATA_SCENARIOS = [
    Scenario("read nothing vs a concurrent metadata change (conflict)", ([], "INSERT INTO {t} VALUES (3, 'a')"),
             ([], "ALTER TABLE {t} SET TBLPROPERTIES ('owner' = 'bob')"), when_b_first("MetadataChangedException"),
             adds((3, "a")), nothing),
    Scenario("both upgrade the protocol: the second conflicts",
             ([], "ALTER TABLE {t} SET TBLPROPERTIES ('delta.enableDeletionVectors' = 'true')"),
             ([], "ALTER TABLE {t} SET TBLPROPERTIES ('delta.enableDeletionVectors' = 'true')"),
             second_always("ProtocolChangedException"), nothing, nothing,
             create=("CREATE TABLE {t} (x INT, v STRING) PARTITIONED BY (x) TBLPROPERTIES "
                     "('delta.isolationLevel' = '{level}', 'delta.enableDeletionVectors' = 'false')")),
    Scenario("a protocol upgrade vs a concurrent append in flight (conflict)",
             ([], "INSERT INTO {t} VALUES (3, 'a')"),
             ([], "ALTER TABLE {t} SET TBLPROPERTIES ('delta.enableDeletionVectors' = 'true')"),
             when_b_first("ProtocolChangedException"), adds((3, "a")), nothing,
             create=("CREATE TABLE {t} (x INT, v STRING) PARTITIONED BY (x) TBLPROPERTIES "
                     "('delta.isolationLevel' = '{level}', 'delta.enableDeletionVectors' = 'false')")),
    Scenario("concurrent creation of the same table: the second conflicts",
             ([], "CREATE TABLE {t} (x INT, v STRING)"), ([], "CREATE TABLE {t} (x INT, v STRING)"),
             second_always("ProtocolChangedException"), nothing, nothing, create="", seed=[],
             skip=("CREATE TABLE cannot run inside a transaction block, so two creations cannot be "
                   "prepared concurrently from SQL; covered by the C++ test "
                   "ConflictMatrix.ConcurrentCreateOfSameTableConflicts")),
]

IDENTITY_CREATE = ("CREATE TABLE {t} (id BIGINT GENERATED BY DEFAULT AS IDENTITY, v STRING) "
                   "TBLPROPERTIES ('delta.isolationLevel' = '{level}')")
IDENTITY_SCENARIOS = [
    Scenario("identity column: both generate values, the second conflicts (high-water mark in the metadata)",
             ([], "INSERT INTO {t} (v) VALUES ('a')"), ([], "INSERT INTO {t} (v) VALUES ('b')"),
             second_always("MetadataChangedException"),
             lambda level: ([], [(1, "a")]), lambda level: ([], [(1, "b")]),
             create=IDENTITY_CREATE, seed=[], query="SELECT id, v FROM {t}", types="IT"),
    Scenario("identity column: explicit values vs generated values (no conflict)",
             ([], "INSERT INTO {t} (v) VALUES ('a')"), ([], "INSERT INTO {t} VALUES (100, 'b')"),
             lambda *_: None, lambda level: ([], [(1, "a")]), lambda level: ([], [(100, "b")]),
             create=IDENTITY_CREATE, seed=[], query="SELECT id, v FROM {t}", types="IT"),
]


def main():
    for name, row, cases in FILES:
        w = Writer(f"Conflict matrix with row-level concurrency (DESIGN.md section 1), row: {row}.", ["row"])
        extra = ROW_TRACKING_CELLS if name == "zorder" else []
        w.write(os.path.join(OUT, f"row_level_{name}.test"), cases + extra)
        # Without deletion vectors REORG ... APPLY (PURGE) has nothing to rewrite.
        keys = ["fdv"] if name == "reorg" else ["fdv", "fno"]
        w = Writer(f"Conflict matrix without row-level concurrency (DESIGN.md section 1), row: {row}.", keys)
        w.write(os.path.join(OUT, f"file_level_{name}.test"), cases)
    intro = "Delta's conflict-checker scenarios (issue #5), both isolation levels, both commit orders: "
    write_scenarios(os.path.join(OUT, "delta_matrix_appends.test"), intro + "appends and reads.",
                    APPEND_SCENARIOS)
    write_scenarios(os.path.join(OUT, "delta_matrix_files.test"), intro + "removed files.", FILE_SCENARIOS)
    write_scenarios(os.path.join(OUT, "delta_matrix_metadata.test"),
                    intro + "metadata, protocol, concurrent creation.", METADATA_SCENARIOS)
    write_scenarios(os.path.join(OUT, "delta_matrix_identity.test"), intro + "identity columns.",
                    IDENTITY_SCENARIOS)


if __name__ == "__main__":
    main()
