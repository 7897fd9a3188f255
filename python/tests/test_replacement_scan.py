"""A caller's DataFrame or Arrow-stream object named in SQL is read as a table (DuckDB's
replacement scans), without registering it for later statements, and never in place of a
table, view or registered name."""

import numpy as np
import pandas as pd
import pytest

import shoal

module_frame = pd.DataFrame({"k": [10, 20], "v": ["x", "y"]})


@pytest.fixture
def con(tmp_path):
    c = shoal.connect(str(tmp_path / "wh"))
    yield c
    c.close()


def test_local_dataframe_is_read_and_inserted(con):
    people = pd.DataFrame({"id": np.arange(5, dtype="int64"), "name": ["a", "b", None, "d", "e"]})
    assert con.sql("SELECT count(*), count(name) FROM people").fetchall() == [(5, 4)]
    con.sql("CREATE TABLE t (id BIGINT, name STRING)")
    con.sql("INSERT INTO t SELECT * FROM people WHERE id > 1")
    assert con.sql("SELECT id, name FROM t ORDER BY id").fetchall() == [(2, None), (3, "d"), (4, "e")]


def test_module_global_and_parameters(con):
    assert con.execute("SELECT v FROM module_frame WHERE k = ?", [20]).fetchall() == [("y",)]


def test_arrow_stream_object_is_read(con):
    rel = con.sql("SELECT 1 AS a UNION ALL SELECT 2")
    assert con.sql("SELECT sum(a) FROM rel").fetchall() == [(3,)]


def test_the_name_is_not_left_registered(con):
    frame = pd.DataFrame({"a": [1]})
    con.sql("SELECT * FROM frame").fetchall()
    del frame
    with pytest.raises(shoal.CatalogException):
        con.sql("SELECT * FROM frame")


def test_a_table_a_registered_name_and_strings_win(con):
    con.sql("CREATE TABLE shadow AS SELECT 42 AS a")
    shadow = pd.DataFrame({"a": [1, 2, 3]})
    assert con.sql("SELECT a FROM shadow").fetchall() == [(42,)]
    other = pd.DataFrame({"b": [7]})
    con.register("mine", pd.DataFrame({"c": [9]}))
    mine = other
    assert con.sql("SELECT * FROM mine").fetchall() == [(9,)]
    assert mine is other and shadow is not None
    # A name inside a string literal is not a table reference.
    assert con.sql("SELECT 'other' AS s").fetchall() == [("other",)]


def test_other_variables_are_not_tables(con):
    not_a_frame = [1, 2, 3]
    assert not_a_frame
    with pytest.raises(shoal.CatalogException):
        con.sql("SELECT * FROM not_a_frame")
