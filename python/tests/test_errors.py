"""Errors are exceptions named as the engine names them, all subclasses of shoal.Error;
closed connections and fetched results behave as documented."""

import pytest

import shoal


@pytest.mark.parametrize("sql,cls", [
    ("SELEC 1", shoal.ParserException),
    ("SELECT nope", shoal.BinderException),
    ("SELECT * FROM missing_table", shoal.CatalogException),
    ("SELECT CAST('x' AS INT)", shoal.ConversionException),
    ("SELECT 9223372036854775807 + 1", shoal.OutOfRangeException),
    ("COMMIT", shoal.TransactionException),
])
def test_errors_map_to_their_classes(con, sql, cls):
    with pytest.raises(cls) as info:
        con.sql(sql)
    assert isinstance(info.value, shoal.Error)
    assert str(info.value)


def test_class_hierarchy_and_code_names():
    assert issubclass(shoal.InvalidArgument, shoal.InvalidInputException)
    assert issubclass(shoal.Corruption, shoal.InvalidInputException)
    assert shoal.IOError is shoal.IOException and shoal.NotSupported is shoal.NotSupportedException
    for name in ["ConcurrentAppendException", "ConcurrentDeleteReadException", "ConcurrentDeleteDeleteException",
                 "MetadataChangedException", "ProtocolChangedException", "ConcurrentTransactionException"]:
        cls = getattr(shoal, name)
        assert cls.__name__ == name and cls.__module__ == "shoal"
        assert issubclass(cls, shoal.ConflictException) and issubclass(cls, shoal.Error)


def test_not_supported_and_invalid_input(con):
    with pytest.raises(shoal.NotSupportedException):
        con.sql("CREATE TABLE x (i INT) USING parquet")
    with pytest.raises(shoal.InvalidInputException):
        con.sql("SELECT * FROM range(1, 10, 0)")


def test_use_of_a_closed_connection_raises_a_clean_error(tmp_path):
    con = shoal.connect(str(tmp_path / "wh"))
    rel = con.sql("SELECT 42 AS x")
    con.close()
    assert con.closed
    with pytest.raises(shoal.ConnectionException, match="connection is closed"):
        con.sql("SELECT 1")
    with pytest.raises(shoal.Error):
        con.register("r", {"x": [1]})
    with pytest.raises(shoal.Error):
        con.cursor()
    con.close()  # closing twice is fine
    assert rel.fetchall() == [(42,)]  # a result outlives its connection


def test_a_result_fetched_twice_continues_from_its_cursor(con):
    rel = con.sql("SELECT i FROM range(5) r(i) ORDER BY i")
    assert rel.fetchone() == (0,)
    assert rel.fetchmany(2) == [(1,), (2,)]
    assert rel.fetchall() == [(3,), (4,)]
    assert rel.fetchall() == []
    assert rel.fetchone() is None
    assert len(rel.fetchnumpy()["i"]) == 0
    again = con.sql("SELECT i FROM range(3) r(i) ORDER BY i")
    assert list(again.fetchnumpy()["i"]) == [0, 1, 2]
    assert again.fetchall() == []


def test_context_manager_closes_and_transactions_roll_back(tmp_path):
    with shoal.connect(str(tmp_path / "wh")) as con:
        con.sql("CREATE TABLE t (i INT)")
        con.begin()
        con.sql("INSERT INTO t VALUES (1)")
        con.rollback()
        con.begin()
        con.execute("INSERT INTO t VALUES (?)", [2])
        con.commit()
        assert con.sql("SELECT * FROM t").fetchall() == [(2,)]
    assert con.closed


def test_unsupported_parameter_types_are_invalid_arguments(con):
    with pytest.raises(shoal.InvalidArgument):
        con.execute("SELECT ?", [object()])
    with pytest.raises(shoal.InvalidArgument):
        con.execute("SELECT ?", "x")


def test_out_of_memory_is_named_and_the_connection_survives(con):
    assert issubclass(shoal.OutOfMemoryException, shoal.Error)
    con.sql("SET memory_limit = '1MB'")
    con.sql("SET temp_directory = ''")  # spilling disabled: the aggregate cannot finish
    groups = "SELECT count(*) FROM (SELECT i % 200000 AS g FROM range(400000) r(i) GROUP BY g) t"
    with pytest.raises(shoal.OutOfMemoryException, match="HashAggregate needs .* of memory_limit 1.0 MiB"):
        con.sql(groups)
    assert con.sql("SELECT 42").fetchall() == [(42,)]
    con.sql("SET memory_limit = '256MB'")
    assert con.sql(groups).fetchall() == [(200000,)]
    assert con.sql("SHOW memory_limit").fetchall() == [("256.0 MiB",)]


def test_unknown_settings_and_bad_values_are_errors(con):
    with pytest.raises(shoal.CatalogException, match="unrecognized configuration parameter"):
        con.sql("SET nope = 1")
    with pytest.raises(shoal.InvalidInputException, match="12XB"):
        con.sql("SET memory_limit = '12XB'")


@pytest.mark.parametrize("sql,token", [
    ("SELECT * FORM t", "FORM"),                               # parser
    ("SELECT 'unterminated", "'unterminated"),                 # lexer
    ("SELECT 1 AS a, nope + 1 FROM range(2)", "nope"),         # binder: column
    ("SELECT * FROM range(2) r JOIN missing_tbl m ON true", "missing_tbl"),  # catalog: table
    ("SELECT 1; SELECT 2;\nSELECT no_such_fn(3)", "no_such_fn"),  # a script: offset into the whole text
    ("SELECT 'é', nope", "nope"),                              # a str index, not a UTF-8 byte offset
])
def test_parser_and_binder_errors_carry_the_offset_of_the_token(con, sql, token):
    with pytest.raises(shoal.Error) as info:
        con.sql(sql)
    offset = info.value.offset
    assert offset is not None, str(info.value)
    assert sql[offset:offset + len(token)] == token


def test_offset_in_execute_is_into_the_whole_text_and_none_without_a_position(con):
    sql = "SELECT ?; SELECT nope"
    with pytest.raises(shoal.BinderException) as info:
        con.execute(sql, [1])
    assert sql[info.value.offset:].startswith("nope")
    with pytest.raises(shoal.ConversionException) as info:
        con.sql("SELECT CAST('x' AS INT)")
    assert info.value.offset is None
    assert shoal.Error.offset is None
