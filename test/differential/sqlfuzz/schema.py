"""Random tables: column types, values (NULLs, duplicates, NaN, infinities, empty and unicode
strings, extreme integers, dates at the epoch and the calendar's ends, 38-digit decimals) and the
statements that create them, rendered for shoal (Spark dialect) or DuckDB."""
import datetime
import decimal
import random

# class of each type: what expressions may do with it (README.md)
INT_TYPES = {"TINYINT": 7, "SMALLINT": 15, "INT": 31, "BIGINT": 63}
STRINGS = ["", "a", "A", "ab", "abc", "b", "B", " a", "a ", "é", "É", "ñ", "日本", "日", "it's", "a%b", "x_y",
           "back\\slash", "🦆", "zz", "naïve", "Ñ", "ÿ", "Ωμ", "ПРИвет", "0", "10", "9"]
TIMESTAMPS = ["1970-01-01 00:00:00", "1969-12-31 23:59:59.999999", "1970-01-01 00:00:00.000001",
              "0001-01-01 00:00:00", "9999-12-31 23:59:59.999999", "2000-02-29 12:30:00", "2024-03-10 02:30:00.5"]
DATES = ["1970-01-01", "1969-12-31", "1970-01-02", "0001-01-01", "9999-12-31", "2000-02-29", "1900-03-01",
         "2024-12-31"]


class Column:
    """A column: name, SQL type, class (int, double, decimal, string, date, bool) and whether
    arithmetic on it stays far from overflow (`bounded`)."""

    def __init__(self, name, sqltype, cls, bounded):
        self.name, self.sqltype, self.cls, self.bounded = name, sqltype, cls, bounded


class Table:
    """A table's columns and rows; shoal's copy may be partitioned by `partition` and have
    deletion vectors (`dv`); `changes` are DELETE/UPDATE statements both engines run after the
    INSERTs (deletion vectors in shoal's files)."""

    def __init__(self, name, columns, rows, partition=None, dv=False, changes=()):
        self.name, self.columns, self.rows = name, columns, rows
        self.partition, self.dv, self.changes = partition, dv, list(changes)
        self.real = True  # False: a query's CTE (generator.py)


def lit(value, col_type, dialect, typed_null=False):
    """`value` of SQL type `col_type` as a literal in `dialect` ('shoal' or 'duck'); a NULL is
    `CAST(NULL AS type)` with `typed_null` (an untyped NULL is Spark's VOID type)."""
    if value is None:
        return f"CAST(NULL AS {col_type})" if typed_null else "NULL"
    if col_type in INT_TYPES:
        if -2**31 < value < 2**31:
            return str(value)
        return f"CAST('{value}' AS {col_type})"
    if col_type == "DOUBLE":
        if value != value:
            return "CAST('NaN' AS DOUBLE)"
        if value in (float("inf"), float("-inf")):
            return f"CAST('{'-' if value < 0 else ''}Infinity' AS DOUBLE)"
        if value == 0 and str(value).startswith("-"):
            return "CAST('-0.0' AS DOUBLE)"  # -0.0 as a number is the negation of the decimal 0.0: +0.0
        return f"CAST({value!r} AS DOUBLE)"
    if col_type.startswith("DECIMAL"):
        return f"CAST('{value:f}' AS {col_type})"
    if col_type == "STRING":
        s = value.replace("'", "''")
        if dialect == "shoal":
            s = s.replace("\\", "\\\\")  # a backslash is an escape in Spark's literals
        return "'" + s + "'"
    if col_type == "DATE":
        return f"DATE '{value}'"
    if col_type == "TIMESTAMP":
        return f"TIMESTAMP '{value}'"
    if col_type == "BOOLEAN":
        return "TRUE" if value else "FALSE"
    raise ValueError(col_type)


def random_value(rng, col, pool):
    """A value for `col`: NULL about one time in seven, else often one of the column's `pool`
    (duplicates), else a fresh one."""
    if rng.random() < 0.14:
        return None
    if pool and rng.random() < 0.5:
        return rng.choice(pool)
    return fresh_value(rng, col)


def fresh_value(rng, col):
    t = col.sqltype
    if t in INT_TYPES:
        if col.bounded:
            return rng.randint(-20, 20)
        bits = INT_TYPES[t]
        return rng.choice([-(2**bits), 2**bits - 1, 0, 1, -1, rng.randint(-(2**bits), 2**bits - 1),
                           rng.randint(-5, 5)])
    if t == "DOUBLE":
        return rng.choice([float("nan"), float("inf"), float("-inf"), 0.0, -0.0, 1.5, -2.25,
                           round(rng.uniform(-1000, 1000), 2), round(rng.uniform(-10, 10), 1)])
    if t == "DECIMAL(38,10)":
        big = 10**38 - 1
        return decimal.Decimal(rng.choice([big, -big, 0, 1, rng.randint(-big, big), rng.randint(-10**12, 10**12)])
                               ).scaleb(-10)
    if t == "DECIMAL(10,2)":
        return decimal.Decimal(rng.choice([rng.randint(-10**5, 10**5), rng.randint(-10**9, 10**9), 0])).scaleb(-2)
    if t == "STRING":
        return rng.choice(STRINGS)
    if t == "DATE":
        if rng.random() < 0.6:
            return rng.choice(DATES)
        return (datetime.date(1950, 1, 1) + datetime.timedelta(days=rng.randint(0, 40000))).isoformat()
    if t == "BOOLEAN":
        return rng.random() < 0.5
    if t == "TIMESTAMP":
        if rng.random() < 0.6:
            return rng.choice(TIMESTAMPS)
        ts = datetime.datetime(1950, 1, 1) + datetime.timedelta(seconds=rng.randint(0, 3 * 10**9),
                                                                microseconds=rng.choice([0, 0, rng.randint(0, 999999)]))
        return ts.isoformat(sep=" ")
    raise ValueError(t)


COLUMN_KINDS = [("INT", "int", True), ("BIGINT", "int", True), ("TINYINT", "int", False),
                ("SMALLINT", "int", False), ("INT", "int", False), ("BIGINT", "int", False),
                ("DOUBLE", "double", True), ("DECIMAL(38,10)", "decimal", False),
                ("DECIMAL(10,2)", "decimal", True), ("STRING", "string", False), ("STRING", "string", False),
                ("DATE", "date", False), ("BOOLEAN", "bool", False), ("TIMESTAMP", "timestamp", False)]


def random_tables(rng, count=None):
    """2-4 tables t0, t1, ... of 0-120 rows (t0 sometimes 700 or 2,500, the others then at most
    30); every table has a unique INT `id` first."""
    tables = []
    big = rng.random() < 0.2
    for ti in range(count or rng.randint(2, 4)):
        cols = [Column("id", "INT", "int", True)]
        for ci in range(rng.randint(2, 6)):
            t, cls, bounded = rng.choice(COLUMN_KINDS)
            cols.append(Column(f"c{ci}", t, cls, bounded))
        if ti == 0 and big:
            n = rng.choice([700, 2500])  # several batches per file: parallel operators, merges
        else:
            n = rng.choice([0, 1, 3, 8, 15, 30, 30] + ([] if big else [120]))
        pools = {c.name: [fresh_value(rng, c) for _ in range(rng.randint(1, 4))] for c in cols}
        ids = list(range(n))
        rng.shuffle(ids)
        rows = [[ids[r]] + [random_value(rng, c, pools[c.name]) for c in cols[1:]] for r in range(n)]
        t = Table(f"t{ti}", cols, rows, dv=rng.random() < 0.4)
        keys = [c for c in cols[1:] if c.sqltype != "DOUBLE"]
        if keys and rng.random() < 0.3:
            key = rng.choice(keys)
            t.partition = key.name
            if key.sqltype == "STRING":  # Delta stores '' as a NULL partition value (Spark reads NULL)
                k = cols.index(key)
                for r in rows:
                    if r[k] == "":
                        r[k] = None
        if rng.random() < 0.4:
            t.changes.append(f"DELETE FROM {t.name} WHERE id % {rng.randint(2, 5)} = {rng.randint(0, 1)}")
        bounded = [c for c in cols[1:] if c.bounded and c.cls == "int" and c.name != t.partition]
        if bounded and rng.random() < 0.3:
            c = rng.choice(bounded).name
            t.changes.append(f"UPDATE {t.name} SET {c} = {c} + 1 WHERE id % 3 = {rng.randint(0, 2)}")
        tables.append(t)
    return tables


def create_statements(tables, dialect):
    """CREATE TABLE and INSERT statements (the rows in up to three INSERTs: several files)."""
    out = []
    for t in tables:
        create = f"CREATE TABLE {t.name} (" + ", ".join(f"{c.name} {c.sqltype}" for c in t.columns) + ")"
        if dialect == "shoal" and t.partition:
            create += f" PARTITIONED BY ({t.partition})"
        if dialect == "shoal" and t.dv:
            create += " TBLPROPERTIES ('delta.enableDeletionVectors' = 'true')"
        out.append(create)
        chunks = [t.rows[i::3] for i in range(3)] if len(t.rows) > 5 else [t.rows]
        for chunk in chunks:
            if not chunk:
                continue
            values = ", ".join("(" + ", ".join(lit(v, c.sqltype, dialect) for v, c in zip(r, t.columns)) + ")"
                               for r in chunk)
            out.append(f"INSERT INTO {t.name} VALUES {values}")
        out += t.changes
    return out
