"""Connection.execute(sql, params) binds values to prepared statements (shoal/prepared.h), by
Python type: values never become SQL text, `$N` works, and wrong counts or types are named
errors."""

import datetime
import decimal
import math

import pytest

import shoal

D = decimal.Decimal


def test_values_are_bound_not_spliced_into_the_text(con):
    con.sql("CREATE TABLE t (s STRING)")
    evil = "x'); DROP TABLE t; --"
    con.execute("INSERT INTO t VALUES (?)", [evil])
    assert con.execute("SELECT s, ? FROM t WHERE s = ?", ("?", evil)).fetchall() == [(evil, "?")]
    # A type error names the bound values: the statement ran as a prepared statement.
    with pytest.raises(shoal.InvalidArgument, match=r"with the bound parameters \(\$1 = 'abc'\)"):
        con.execute("SELECT ? + 1", ["abc"])


def test_dollar_parameters_can_repeat(con):
    assert con.execute("SELECT $1 + $1, $2, $1", [20, "x"]).fetchall() == [(40, "x", 20)]
    with pytest.raises(shoal.ParserException):
        con.execute("SELECT ?, $1", [1])


def test_each_python_type_binds_as_its_sql_type(con):
    values = [None, True, 7, 2 ** 40, 2 ** 70, -(2 ** 63), 0.25, "ünï", b"\x00\xff", bytearray(b"ab"),
              D("-12.50"), D("1E+2"), datetime.date(2024, 2, 29), datetime.datetime(2024, 1, 2, 3, 4, 5, 6),
              datetime.datetime(2024, 1, 2, 5, 4, 5, tzinfo=datetime.timezone(datetime.timedelta(hours=2))),
              datetime.time(1, 2, 3, 4)]
    sql = "SELECT " + ", ".join("typeof(?)" for _ in values)
    assert con.execute(sql, values).fetchall() == [(
        "void", "boolean", "int", "bigint", "decimal(22,0)", "bigint", "double", "string", "binary", "binary",
        "decimal(4,2)", "decimal(3,0)", "date", "timestamp_ntz", "timestamp", "time")]
    got = con.execute("SELECT " + ", ".join("?" for _ in values), values).fetchone()
    assert got[:4] == (None, True, 7, 2 ** 40)
    assert got[4] == D(2 ** 70) and got[5] == -(2 ** 63) and got[6] == 0.25 and got[7] == "ünï"
    assert got[8:10] == (b"\x00\xff", b"ab") and got[10] == D("-12.50") and got[11] == D("100")
    assert got[12] == datetime.date(2024, 2, 29) and got[13] == datetime.datetime(2024, 1, 2, 3, 4, 5, 6)
    assert got[14] == datetime.datetime(2024, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc)
    assert got[15] == datetime.time(1, 2, 3, 4)


def test_nan_and_infinities_bind_as_doubles(con):
    con.sql("CREATE TABLE t (d DOUBLE)")
    con.execute("INSERT INTO t VALUES (?), (?), (?)", [math.nan, math.inf, -math.inf])
    rows = con.sql("SELECT d FROM t ORDER BY d").fetchall()
    assert rows[0] == (-math.inf,) and rows[1] == (math.inf,) and math.isnan(rows[2][0])
    assert con.execute("SELECT count(*) FROM t WHERE d IS NOT DISTINCT FROM ?", [math.nan]).fetchall() == [(1,)]


def test_nested_values_bind(con):
    con.sql("CREATE TABLE t (l ARRAY<INT>, s STRUCT<x: INT, y: ARRAY<STRING>>, ll ARRAY<ARRAY<DOUBLE>>)")
    value = ([1, None, 3], {"x": 5, "y": ["a", None]}, [[1.5], [], None])
    con.execute("INSERT INTO t VALUES (?, ?, ?)", value)
    con.execute("INSERT INTO t VALUES (?, ?, ?)", ((), {"x": None, "y": []}, None))
    assert con.sql("SELECT * FROM t").fetchall() == [value, ([], {"x": None, "y": []}, None)]
    assert con.execute("SELECT count(*) FROM t WHERE l = ? AND s.x = ?", [[1, None, 3], 5]).fetchall() == [(1,)]
    assert con.execute("SELECT ?", [[{"k": "v"}]]).fetchall() == [([{"k": "v"}],)]


def test_several_statements_take_the_values_in_order(con):
    r = con.execute("CREATE TABLE t (i INT, s STRING); INSERT INTO t VALUES (?, ?); INSERT INTO t VALUES (?, 'b');"
                    " SELECT count(*), sum(i) FROM t WHERE s IN (?, 'b')", [1, "a", 2, "a"])
    assert r.fetchall() == [(2, 3)]
    # A ';' inside a string or comment does not split a statement.
    assert con.execute("SELECT ';' AS a, ? -- ; ?\n;", [5]).fetchall() == [(";", 5)]
    # No statement: an empty result (as sql()), or an error when values were given.
    assert con.execute(" ; ", []).fetchall() == []
    with pytest.raises(shoal.InvalidArgument, match="0 parameter"):
        con.execute("-- nothing", [1])


def test_wrong_counts_and_types_are_named_errors(con):
    with pytest.raises(shoal.InvalidArgument, match="has 2 parameter\\(s\\), 1 given"):
        con.execute("SELECT ?, ?", [1])
    with pytest.raises(shoal.InvalidArgument, match="has 1 parameter\\(s\\), 2 given"):
        con.execute("SELECT ?", [1, 2])
    with pytest.raises(shoal.InvalidArgument, match="parameter 2: values of type object"):
        con.execute("SELECT ?, ?", [1, object()])
    with pytest.raises(shoal.InvalidArgument, match="parameter 1: values of type set"):
        con.execute("SELECT ?", [{1}])
    with pytest.raises(shoal.InvalidArgument, match="not finite"):
        con.execute("SELECT ?", [D("NaN")])
    with pytest.raises(shoal.InvalidArgument, match="mixes"):
        con.execute("SELECT ?", [[1, "two"]])
    with pytest.raises(shoal.InvalidArgument, match="list or tuple"):
        con.execute("SELECT ?", {"a": 1})
    with pytest.raises(shoal.InvalidArgument):  # a parameter without values
        con.execute("SELECT ?")
    with pytest.raises(shoal.OutOfRangeException, match="more than 38 digits"):  # as the literal would
        con.execute("SELECT ?", [10 ** 40])
    with pytest.raises(shoal.InvalidArgument, match="more than 38 digits"):
        con.execute("SELECT ?", [D("1" * 30 + "." + "5" * 9)])
    assert con.execute("SELECT ?", [D("1" * 29 + "." + "5" * 9)]).fetchall() == [(D("1" * 29 + "." + "5" * 9),)]
    # Nothing ran: the failing statement's predecessors included (values are checked first).
    con.sql("CREATE TABLE t (i INT)")
    with pytest.raises(shoal.InvalidArgument):
        con.execute("INSERT INTO t VALUES (?); INSERT INTO t VALUES (?)", [1])
    assert con.sql("SELECT count(*) FROM t").fetchall() == [(0,)]
    assert con.execute("SELECT ?", [1]).fetchall() == [(1,)]  # the connection is fine
