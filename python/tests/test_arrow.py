"""The Arrow PyCapsule interface both ways, without pyarrow: a Relation's __arrow_c_stream__
capsule registered on another warehouse's connection gives back every value of every type;
a producer written with ctypes (arrow_ctypes.py) is imported, and its failures are named errors
with every release callback called exactly once."""

import datetime
import decimal
import gc
import math
import sys

import pytest

import shoal
from arrow_ctypes import EIO, Producer, consume, schema_capsule, stream_of

D = decimal.Decimal

COLUMNS = ("k INT, b BOOLEAN, i8 TINYINT, i16 SMALLINT, i32 INT, i64 BIGINT, f FLOAT, d DOUBLE, dec5 DECIMAL(5,2),"
           " dec18 DECIMAL(18,4), dec38 DECIMAL(38,10), dec38z DECIMAL(38,0), s STRING, bin BINARY, dt DATE,"
           " ts TIMESTAMP, ntz TIMESTAMP_NTZ, l ARRAY<INT>, ls ARRAY<STRING>,"
           " st STRUCT<a: INT, b: STRING, c: ARRAY<DOUBLE>>, m MAP<STRING, BIGINT>")
ROWS = [
    "(1, true, -128, -32768, -2147483648, -9223372036854775808, CAST(1.5 AS FLOAT), CAST('NaN' AS DOUBLE),"
    " -12.34, 99999999999999.9999, CAST('-9999999999999999999999999999.9999999999' AS DECIMAL(38,10)),"
    " CAST('99999999999999999999999999999999999999' AS DECIMAL(38,0)), 'héllo ✓ 𝄞', X'00FF27',"
    " DATE '0001-01-01', TIMESTAMP '2024-02-29 12:34:56.789012', TIMESTAMP_NTZ '1969-12-31 23:59:59.999999',"
    " [1, NULL, 3], ['a', NULL, ''], {'a': 7, 'b': 'x', 'c': [1.5, NULL]}, map('k1', 10, 'k2', CAST(NULL AS BIGINT)))",
    "(2, false, 127, 32767, 2147483647, 9223372036854775807, CAST('Infinity' AS FLOAT), CAST('-Infinity' AS DOUBLE),"
    " 0.01, -0.0001, CAST('0.0000000001' AS DECIMAL(38,10)), CAST('-99999999999999999999999999999999999999' AS"
    " DECIMAL(38,0)), '', X'', DATE '9999-12-31', TIMESTAMP '1970-01-01 00:00:00',"
    " TIMESTAMP_NTZ '2000-01-01 00:00:00', [], [], {'a': NULL, 'b': NULL, 'c': NULL}, CAST(map() AS MAP<STRING, BIGINT>))",
    "(3" + ", NULL" * 20 + ")",
]
# TIME has no Delta column type (nor SQL spelling): it comes from registered Python values.
SELECT = "SELECT t.*, x.tm FROM t JOIN times x ON t.k = x.k ORDER BY t.k"
TIMES = {"k": [1, 2, 3], "tm": [datetime.time(12, 34, 56, 1), datetime.time(0, 0), None]}


def same(a, b):
    """Equal values of equal Python types; NaN equals NaN."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, datetime.datetime):
        return a == b and a.tzinfo == b.tzinfo
    return a == b


@pytest.fixture
def source(con):
    con.sql("CREATE TABLE t (%s)" % COLUMNS)
    for row in ROWS:
        con.sql("INSERT INTO t VALUES " + row)
    con.register("times", TIMES)
    return con


@pytest.fixture
def other(tmp_path):
    c = shoal.connect(str(tmp_path / "other"), threads=2)
    yield c
    c.close()


def test_every_type_round_trips_through_the_capsule_into_another_warehouse(source, other):
    rel = source.sql(SELECT)
    expected = source.sql(SELECT).fetchall()
    assert len(expected) == 3 and expected[2][1:] == (None,) * 21
    assert math.isnan(expected[0][7]) and expected[1][6] == math.inf and expected[1][7] == -math.inf
    assert expected[0][11] == D("9" * 38) and expected[0][10] == D("-9999999999999999999999999999.9999999999")
    assert expected[0][-1] == datetime.time(12, 34, 56, 1)
    other.register("copy", rel)
    got = other.sql("SELECT * FROM copy ORDER BY k")
    assert got.columns == rel.columns
    assert got.types == rel.types
    assert got.types[-1] == "TIME" and got.types[8:12] == ["DECIMAL(5,2)", "DECIMAL(18,4)", "DECIMAL(38,10)",
                                                           "DECIMAL(38,0)"]
    rows = got.fetchall()
    assert len(rows) == 3
    for want, have in zip(expected, rows):
        for name, x, y in zip(rel.columns, want, have):
            assert same(x, y), (name, x, y)
    # The registered copy is readable by many statements, and can be written to a table.
    other.sql("CREATE TABLE kept AS SELECT %s FROM copy" % ", ".join(rel.columns[:-1]))  # Delta has no TIME
    kept = other.sql("SELECT * FROM kept ORDER BY k").fetchall()
    assert all(same(x[:-1], y) for x, y in zip(expected, kept))


def test_an_empty_result_keeps_its_schema(con, other):
    rel = con.sql("SELECT CAST(1 AS SMALLINT) AS a, 'x' AS b, [1.5] AS c, CAST(2 AS DECIMAL(30,3)) AS d"
                  " FROM range(10) r(i) WHERE i < 0")
    other.register("empty", rel)
    got = other.sql("SELECT * FROM empty")
    assert got.columns == ["a", "b", "c", "d"]
    assert got.types == ["SMALLINT", "STRING", "ARRAY<DECIMAL(2,1)>", "DECIMAL(30,3)"] == rel.types
    assert got.fetchall() == []
    tree, batches = consume(rel.__arrow_c_stream__())
    assert [c[1] for c in tree[2]] == ["s", "U", "+L", "d:30,3"] and batches == []


def test_a_multi_batch_result_round_trips_in_order(con, other):
    n = 50_000
    sql = ("SELECT i, 'r' || i AS s, CASE WHEN i %% 7 = 0 THEN NULL ELSE i * 1.5 END AS x"
           " FROM range(%d) r(i) ORDER BY i" % n)
    rel = con.sql(sql)
    tree, batches = consume(rel.__arrow_c_stream__())
    assert tree == ("", "+s", [("i", "l", []), ("s", "U", []), ("x", "d:22,1", [])])
    assert len(batches) > 1 and sum(length for length, _ in batches) == n
    ids = [v for _, cols in batches for v in cols[0]]
    assert ids == list(range(n))
    assert [v for _, cols in batches for v in cols[1]][:3] == ["r0", "r1", "r2"]
    other.register("many", rel)
    assert other.sql("SELECT count(*), sum(i), count(x), min(s), max(s) FROM many").fetchall() == [
        (n, n * (n - 1) // 2, n - (n + 6) // 7, "r0", "r9999")]
    assert other.sql("SELECT * FROM many ORDER BY i").fetchall() == con.sql(sql).fetchall()


def test_each_call_streams_the_whole_result_and_leaves_the_cursor(con, other):
    rel = con.sql("SELECT i FROM range(10) r(i) ORDER BY i")
    assert rel.fetchmany(3) == [(0,), (1,), (2,)]
    first, second = rel.__arrow_c_stream__(), rel.__arrow_c_stream__()
    assert [v for _, cols in consume(first)[1] for v in cols[0]] == list(range(10))
    other.register("again", second)  # a capsule is accepted as well
    other.register("again2", rel)
    assert other.sql("SELECT count(*) FROM again").fetchall() == [(10,)]
    assert other.sql("SELECT count(*) FROM again2").fetchall() == [(10,)]
    assert rel.fetchall() == [(i,) for i in range(3, 10)]  # the cursor did not move


def test_the_capsule_follows_the_pycapsule_interface(con):
    rel = con.sql("SELECT 7 AS seven")
    cap = rel.__arrow_c_stream__()
    assert type(cap).__name__ == "PyCapsule" and "arrow_array_stream" in repr(cap)
    # Read without releasing the stream: the capsule's destructor must release it.
    consume(cap, release_stream=False)
    assert stream_of(cap).release
    del cap
    gc.collect()
    # Moved out by a consumer (release set to NULL): the destructor only frees the struct.
    cap = rel.__arrow_c_stream__()
    consume(cap, release_stream=True)
    assert not stream_of(cap).release
    del cap
    gc.collect()
    assert rel.fetchall() == [(7,)]


def test_requested_schema_is_accepted_only_when_it_is_the_results(con):
    rel = con.sql("SELECT 1 AS a, 'x' AS b, [1] AS c")
    own = schema_capsule(of_stream=rel.__arrow_c_stream__())
    tree, batches = consume(rel.__arrow_c_stream__(requested_schema=own))
    assert [c[1] for c in tree[2]] == ["i", "U", "+L"] and batches[0][0] == 1
    with pytest.raises(shoal.NotSupportedException, match="column 'a' is Arrow format 'i'.*'l'"):
        rel.__arrow_c_stream__(requested_schema=schema_capsule([("a", "l"), ("b", "U"), ("c", "+L")]))
    with pytest.raises(shoal.NotSupportedException, match="named 'b'.*'renamed'"):
        rel.__arrow_c_stream__(requested_schema=schema_capsule([("a", "i"), ("renamed", "U"), ("c", "+L")]))
    with pytest.raises(shoal.NotSupportedException, match="3 field"):
        rel.__arrow_c_stream__(requested_schema=schema_capsule([("a", "i")]))
    with pytest.raises(shoal.InvalidArgument, match="arrow_schema"):
        rel.__arrow_c_stream__(requested_schema="not a capsule")
    with pytest.raises(shoal.InvalidArgument, match="arrow_schema"):
        rel.__arrow_c_stream__(requested_schema=rel.__arrow_c_stream__())  # a stream, not a schema


def test_fetch_arrow_stream_cuts_the_rest_into_batches_of_the_asked_size(con):
    rel = con.sql("SELECT i, 's' || i AS s FROM range(5000) r(i) ORDER BY i")
    rel.fetchmany(5)
    tree, batches = consume(rel._result.fetch_arrow_stream(1000))
    assert [length for length, _ in batches] == [1000, 1000, 1000, 1000, 995]
    assert [v for _, cols in batches for v in cols[0]] == list(range(5, 5000))
    assert [v for _, cols in batches for v in cols[1]][-1] == "s4999"
    assert rel.fetchall() == []  # fetched to the end
    rest = con.sql("SELECT i FROM range(3000) r(i) ORDER BY i")
    rest.fetchmany(2)
    _, own = consume(rest._result.fetch_arrow_stream(0))  # the result's own batches
    assert sum(length for length, _ in own) == 2998 and own[0][1][0][0] == 2


def test_pyarrow_calls_name_the_missing_dependency(con, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # `import pyarrow` fails, installed or not
    rel = con.sql("SELECT 1 AS a")
    for call in (rel.fetch_arrow_reader, rel.fetch_arrow_table, rel.arrow):
        with pytest.raises(shoal.MissingDependencyException, match="needs pyarrow") as info:
            call()
        assert isinstance(info.value, ImportError) and isinstance(info.value, shoal.Error)
    assert rel.fetchall() == [(1,)]  # nothing was read


def test_with_pyarrow_a_relation_is_a_table_and_a_table_registers(con):
    pa = pytest.importorskip("pyarrow", reason="pyarrow is not installed (the tests above cover the capsule)")
    rel = con.sql("SELECT i, 's' || i AS s, CAST(i AS DECIMAL(20,2)) AS d FROM range(3000) r(i) ORDER BY i")
    table = pa.table(rel)
    assert table.num_rows == 3000 and table.column_names == ["i", "s", "d"]
    assert table.column("s")[2].as_py() == "s2" and table.column("d")[1].as_py() == D("1.00")
    reader = rel.fetch_arrow_reader(batch_size=1000)
    assert [b.num_rows for b in reader] == [1000, 1000, 1000]
    assert con.sql("SELECT 1 AS x").arrow().to_pydict() == {"x": [1]}
    con.register("from_arrow", pa.table({"a": [1, None, 3], "b": ["x", "y", None]}))
    assert con.sql("SELECT * FROM from_arrow ORDER BY a NULLS FIRST").fetchall() == [(None, "y"), (1, "x"), (3, None)]


# ---- a foreign producer (ctypes)

def test_a_foreign_int64_and_utf8_stream_imports_and_is_released_once(con):
    p = Producer([("id", "l"), ("name", "u")],
                 [[[1, 2, None], ["one", None, "ünï"]], [[4], [""]]])
    con.register("foreign", p)
    assert p.released == {"stream": 1, "schema": 1, "array": 2} and p.made == {"schema": 1, "array": 2}
    assert con.sql("SELECT * FROM foreign").types == ["BIGINT", "STRING"]
    for _ in range(2):  # registered data is read by many statements
        assert con.sql("SELECT * FROM foreign ORDER BY id NULLS LAST").fetchall() == [
            (1, "one"), (2, None), (4, ""), (None, "ünï")]
    con.sql("CREATE TABLE t AS SELECT * FROM foreign")
    con.sql("INSERT INTO t SELECT * FROM foreign WHERE id = 4")
    assert con.sql("SELECT count(*) FROM t").fetchall() == [(5,)]
    gc.collect()
    assert p.released == {"stream": 1, "schema": 1, "array": 2}  # the capsule did not release it again


@pytest.mark.parametrize("fmt", ["+ud:0,1", "tin"])
def test_an_unsupported_foreign_format_is_a_named_error(con, fmt):
    p = Producer([("ok", "l"), ("bad", fmt)])
    with pytest.raises(shoal.NotSupportedException, match="'%s'" % fmt.replace("+", r"\+")) as info:
        con.register("bad", p)
    assert isinstance(info.value, shoal.Error)
    assert p.released == {"stream": 1, "schema": 1, "array": 0}
    with pytest.raises(shoal.CatalogException):
        con.sql("SELECT * FROM bad")
    assert con.sql("SELECT 1").fetchall() == [(1,)]


def test_a_failing_get_next_is_a_named_error_with_the_producers_text(con):
    p = Producer([("id", "l")], [[[1, 2]], [[3]]], fail_at=(1, EIO, "sensor 7 went offline"))
    with pytest.raises(shoal.IOException, match="sensor 7 went offline") as info:
        con.register("failing", p)
    assert isinstance(info.value, shoal.Error)
    assert p.released == {"stream": 1, "schema": 1, "array": 1}
    assert con.sql("SELECT 1").fetchall() == [(1,)]


def test_a_consumed_or_foreign_capsule_is_a_named_error_not_a_crash(con):
    p = Producer([("id", "l")], [[[1]]])
    cap = p.capsule()
    con.register("once", cap)
    assert p.released["stream"] == 1 and not stream_of(cap).release
    with pytest.raises(shoal.InvalidArgument, match="already consumed"):
        con.register("twice", cap)

    class WrongName:
        def __arrow_c_stream__(self, requested_schema=None):
            return schema_capsule([("a", "l")])

    class NotACapsule:
        def __arrow_c_stream__(self, requested_schema=None):
            return 42

    with pytest.raises(shoal.InvalidArgument, match="not 'arrow_array_stream'"):
        con.register("wrong", WrongName())
    with pytest.raises(shoal.InvalidArgument, match="not a PyCapsule"):
        con.register("wrong", NotACapsule())
    with pytest.raises(shoal.InvalidArgument, match="__arrow_c_stream__"):
        con.register("wrong", 42)
    assert con.sql("SELECT * FROM once").fetchall() == [(1,)]
    del cap
    gc.collect()
    assert p.released["stream"] == 1


def test_registering_on_a_closed_connection_leaves_the_stream_to_its_capsule(tmp_path):
    con = shoal.connect(str(tmp_path / "wh"))
    con.close()
    p = Producer([("id", "l")], [[[1]]])
    with pytest.raises(shoal.ConnectionException):
        con.register("x", p)
    assert p.made == {"schema": 0, "array": 0}  # __arrow_c_stream__ was not called
    cap = p.capsule()
    with pytest.raises(shoal.ConnectionException):
        con._con.register_arrow("x", cap)
    assert stream_of(cap).release  # not taken
    del cap
    gc.collect()
    assert p.released["stream"] == 1  # released by the capsule's destructor
