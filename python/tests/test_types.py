"""Type mapping both ways: SQL values to Python objects (fetchall, fetchnumpy) and Python
values to SQL (parameters, registered DataFrames), with NULLs, wide decimals, dates,
timestamps and nested values."""

import datetime
import decimal

import numpy as np
import pytest

import shoal

UTC = datetime.timezone.utc
D = decimal.Decimal


def test_fetchall_maps_every_type(con):
    r = con.sql(
        "SELECT 1 AS i, CAST(2 AS BIGINT) AS b, CAST(1.5 AS DOUBLE) AS d, CAST(12.34 AS DECIMAL(10,2)) AS dec,"
        " CAST('12345678901234567890.123456789' AS DECIMAL(38,9)) AS wide, 'héllo' AS s, X'00ff' AS bin,"
        " DATE '2024-02-29' AS day, TIMESTAMP '2024-01-02 03:04:05.123456' AS ts,"
        " TIMESTAMP_NTZ '2024-01-02 03:04:05' AS ntz, TRUE AS t, NULL AS n, [1, 2, NULL] AS arr,"
        " {'a': 1, 'b': 'x'} AS st, map('k', 2) AS m, map([1], 'x') AS am")
    assert r.columns == ["i", "b", "d", "dec", "wide", "s", "bin", "day", "ts", "ntz", "t", "n", "arr", "st", "m", "am"]
    assert r.types[:5] == ["INT", "BIGINT", "DOUBLE", "DECIMAL(10,2)", "DECIMAL(38,9)"]
    row = r.fetchone()
    assert row == (1, 2, 1.5, D("12.34"), D("12345678901234567890.123456789"), "héllo", b"\x00\xff",
                   datetime.date(2024, 2, 29), datetime.datetime(2024, 1, 2, 3, 4, 5, 123456, tzinfo=UTC),
                   datetime.datetime(2024, 1, 2, 3, 4, 5), True, None, [1, 2, None], {"a": 1, "b": "x"},
                   {"k": 2}, {(1,): "x"})
    assert row[8].tzinfo is UTC and row[9].tzinfo is None
    assert r.fetchone() is None


def test_nulls_of_every_type_are_none(con):
    con.sql("CREATE TABLE t (a INT, b DOUBLE, c DECIMAL(30,4), d STRING, e DATE, f TIMESTAMP, g BOOLEAN,"
            " h ARRAY<INT>, i STRUCT<x: INT>)")
    con.sql("INSERT INTO t VALUES (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)")
    assert con.sql("SELECT * FROM t").fetchall() == [(None,) * 9]


PARAMS = [
    ("BIGINT", -(2 ** 63)),
    ("BIGINT", 2 ** 63 - 1),
    ("DOUBLE", 0.1),
    ("DOUBLE", -1e300),
    ("DECIMAL(10,2)", D("-12345678.90")),
    ("DECIMAL(38,10)", D("1234567890123456789012345678.0123456789")),
    ("STRING", "it's a \"quote\" -- not a comment ? /* nor this */"),
    ("STRING", "ünïcödé ✓"),
    ("BINARY", b"\x00\x01'\xff"),
    ("DATE", datetime.date(1999, 12, 31)),
    ("TIMESTAMP", datetime.datetime(2024, 5, 6, 7, 8, 9, 10, tzinfo=UTC)),
    ("TIMESTAMP", datetime.datetime(2024, 5, 6, 9, 8, 9, tzinfo=datetime.timezone(datetime.timedelta(hours=2)))),
    ("TIMESTAMP_NTZ", datetime.datetime(1970, 1, 1, 0, 0, 0, 1)),
    ("BOOLEAN", False),
    ("ARRAY<INT>", [1, None, 3]),
    ("STRUCT<x: INT, y: STRING>", {"x": 1, "y": "z"}),
    ("INT", None),
]


@pytest.mark.parametrize("sql_type,value", PARAMS)
def test_parameters_round_trip_through_a_table(con, sql_type, value):
    con.sql("CREATE TABLE p (v %s)" % sql_type)
    con.execute("INSERT INTO p VALUES (?)", [value])
    got = con.execute("SELECT v FROM p WHERE ? IS NULL OR v IS NOT DISTINCT FROM ?", (None, value)).fetchall()
    assert len(got) == 1
    if isinstance(value, datetime.datetime) and value.tzinfo is not None:
        assert got[0][0] == value and got[0][0].tzinfo is UTC
    else:
        assert got[0][0] == value


def test_a_question_mark_in_a_string_or_comment_is_not_a_parameter(con):
    r = con.execute("SELECT '?' AS q, ? AS p -- ?\n", ["x"])
    assert r.fetchall() == [("?", "x")]
    with pytest.raises(shoal.InvalidArgument):
        con.execute("SELECT ?, ?", [1])


def test_fetchnumpy_fills_typed_arrays_and_masks_nulls(con):
    res = con.sql(
        "SELECT i AS i, CAST(i AS DOUBLE) / 2 AS d, i % 2 = 0 AS even, DATE '2024-01-01' + CAST(i AS INT) AS day,"
        " TIMESTAMP_NTZ '2024-01-01 00:00:00' AS ts, CASE WHEN i = 1 THEN NULL ELSE i END AS maybe,"
        " 's' || i AS s, CAST(i AS DECIMAL(5,1)) AS dec FROM range(3) r(i) ORDER BY i").fetchnumpy()
    assert res["i"].dtype == np.int64 and list(res["i"]) == [0, 1, 2]
    assert res["d"].dtype == np.float64 and list(res["d"]) == [0.0, 0.5, 1.0]
    assert res["even"].dtype == np.bool_ and list(res["even"]) == [True, False, True]
    assert res["day"].dtype == np.dtype("datetime64[D]") and str(res["day"][2]) == "2024-01-03"
    assert res["ts"].dtype == np.dtype("datetime64[us]")
    assert isinstance(res["maybe"], np.ma.MaskedArray) and res["maybe"].dtype == np.int64
    assert list(res["maybe"].mask) == [False, True, False] and res["maybe"][2] == 2
    assert res["s"].dtype == object and list(res["s"]) == ["s0", "s1", "s2"]
    assert list(res["dec"]) == [D("0.0"), D("1.0"), D("2.0")]


def test_dataframe_round_trip_through_ctas(con):
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({
        "i": np.array([1, 2, 3], dtype=np.int64),
        "small": np.array([1, -2, 3], dtype=np.int16),
        "f": [1.5, None, -0.25],
        "ni": pd.array([1, None, 3], dtype="Int64"),
        "b": [True, False, True],
        "s": ["a", None, "ccc"],
        "bin": [b"x", b"", None],
        "dec": [D("1.10"), D("-22.05"), None],
        "wide": [D("12345678901234567890123.45"), D("0.01"), D("-1")],
        "day": [datetime.date(2020, 1, 1), None, datetime.date(1960, 6, 30)],
        "ntz": pd.to_datetime(["2021-01-01 10:00:00.000001", None, "1950-01-01"]),
        "ts": pd.to_datetime(["2021-01-01 10:00", "2021-01-01 11:00", None]).tz_localize("Europe/Berlin"),
        "arr": [[1, 2], [], None],
        "st": [{"k": 1, "v": "a"}, None, {"k": 3, "v": None}],
    })
    con.register("frame", df)
    con.sql("CREATE TABLE t AS SELECT * FROM frame")
    types = dict(zip(con.sql("SELECT * FROM t").columns, con.sql("SELECT * FROM t").types))
    assert types["i"] == "BIGINT" and types["small"] == "SMALLINT" and types["dec"] == "DECIMAL(4,2)"
    assert types["wide"] == "DECIMAL(25,2)" and types["ts"] == "TIMESTAMP" and types["ntz"] == "TIMESTAMP_NTZ"
    back = con.sql("SELECT * FROM t ORDER BY i").df()
    assert list(back["i"]) == [1, 2, 3] and list(back["small"]) == [1, -2, 3]
    assert back["f"][0] == 1.5 and np.isnan(back["f"][1])
    assert str(back["ni"].dtype) == "Int64" and back["ni"].isna().tolist() == [False, True, False]
    assert list(back["b"]) == [True, False, True]
    assert list(back["s"]) == ["a", None, "ccc"] and list(back["bin"]) == [b"x", b"", None]
    assert list(back["dec"]) == [D("1.10"), D("-22.05"), None]
    assert list(back["wide"]) == [D("12345678901234567890123.45"), D("0.01"), D("-1.00")]
    # DATE is datetime64 in pandas (it has no date dtype); fetchall gives datetime.date.
    pd.testing.assert_series_equal(back["day"], pd.Series(pd.to_datetime(["2020-01-01", None, "1960-06-30"])),
                                   check_names=False)
    assert con.sql("SELECT day FROM t ORDER BY i").fetchall() == [
        (datetime.date(2020, 1, 1),), (None,), (datetime.date(1960, 6, 30),)]
    pd.testing.assert_series_equal(back["ntz"], df["ntz"].astype("datetime64[ns]"), check_names=False)
    pd.testing.assert_series_equal(back["ts"], df["ts"].dt.tz_convert("UTC"), check_names=False)
    assert list(back["arr"]) == [[1, 2], [], None]
    assert list(back["st"]) == [{"k": 1, "v": "a"}, None, {"k": 3, "v": None}]
    # INSERT ... SELECT from the registered frame appends to an existing table.
    con.sql("INSERT INTO t SELECT * FROM frame WHERE i = 1")
    assert con.sql("SELECT count(*) FROM t WHERE i = 1").fetchall() == [(2,)]


def test_register_a_dict_of_arrays_and_unregister(con):
    con.register("nums", {"x": np.arange(5000, dtype=np.int64), "y": np.ma.masked_array(np.ones(5000), mask=np.arange(5000) % 2 == 0)})
    assert con.sql("SELECT count(*), sum(x), count(y) FROM nums").fetchall() == [(5000, 12497500, 2500)]
    con.unregister("nums")
    with pytest.raises(shoal.CatalogException):
        con.sql("SELECT * FROM nums")


def test_register_rejects_mixed_object_columns(con):
    with pytest.raises(shoal.InvalidArgument, match="mixes"):
        con.register("bad", {"x": [1, "two"]})


def test_register_reads_arrays_that_are_not_aligned(con):
    # An array unpickled from bytes (a DataFrame shipped to a Dask worker) can start at any
    # address: its values are read without assuming alignment (UBSan checks it in the ASan run).
    raw = bytes(1) + np.arange(1000, dtype=np.int64).tobytes() + bytes(7)
    ints = np.frombuffer(raw, dtype=np.int64, count=1000, offset=1)
    floats = np.frombuffer(bytes(3) + (np.arange(1000) / 4).tobytes(), dtype=np.float64, count=1000, offset=3)
    assert ints.ctypes.data % 8 != 0 and floats.ctypes.data % 8 != 0
    con.register("unaligned", {"i": ints, "f": floats})
    assert con.execute("SELECT sum(i), sum(f), min(i), max(f) FROM unaligned").fetchall() == [
        (499500, 124875.0, 0, 249.75)
    ]
