"""Unit tests of the fuzzer's own parts that decide a verdict: value comparison, literal
rendering, TLP's recombination of aggregates, minimization. Run by CTest (differential/sqlfuzz_unit)."""
import decimal
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from sqlfuzz import compare, minimize, oracles, schema  # noqa: E402
from sqlfuzz.generator import Gen  # noqa: E402
from sqlfuzz.sqlast import E  # noqa: E402

D = decimal.Decimal


def test_rows_compare_as_multisets_with_float_tolerance_and_nan():
    assert compare.same_rows([(1, "a"), (2, None)], [(2, None), (1, "a")], ordered=False)
    assert not compare.same_rows([(1, "a"), (2, None)], [(2, None), (1, "a")], ordered=True)
    assert compare.same_rows([(0.1 + 0.2,)], [(0.3,)], ordered=True)
    assert not compare.same_rows([(0.3001,)], [(0.3,)], ordered=True)
    assert compare.same_rows([(float("nan"),)], [(float("nan"),)], ordered=True)
    assert not compare.same_rows([(float("inf"),)], [(float("-inf"),)], ordered=True)
    assert compare.same_rows([(D("1.50"),)], [(D("1.5"),)], ordered=True)
    assert not compare.same_rows([(1,), (1,)], [(1,)], ordered=False)
    assert not compare.same_rows([(True,)], [(1,)], ordered=True)


def test_duckdb_values_are_normalized_by_type():
    assert compare.normalize_duck("12345678901234567890", "HUGEINT") == 12345678901234567890
    assert compare.normalize_duck("1.5000", "DECIMAL(38,4)") == D("1.5")
    assert compare.normalize_duck("1969-12-31 23:59:59.5", "TIMESTAMP") == "1969-12-31 23:59:59.500000"
    assert compare.normalize_duck("NaN", "DOUBLE") != compare.normalize_duck("NaN", "DOUBLE")  # NaN


def test_literals_render_per_dialect():
    assert schema.lit("a\\b'c", "STRING", "shoal") == "'a\\\\b''c'"
    assert schema.lit("a\\b'c", "STRING", "duck") == "'a\\b''c'"
    assert schema.lit(-0.0, "DOUBLE", "duck") == "CAST('-0.0' AS DOUBLE)"
    assert schema.lit(D(10**38 - 1).scaleb(-10), "DECIMAL(38,10)", "shoal") == \
        "CAST('9999999999999999999999999999.9999999999' AS DECIMAL(38,10))"
    assert schema.lit(-2**63, "BIGINT", "duck") == "CAST('-9223372036854775808' AS BIGINT)"
    assert schema.lit(None, "INT", "duck", typed_null=True) == "CAST(NULL AS INT)"


def test_tlp_recombines_min_max_sum_count_per_group():
    q = type("Q", (), {})()
    q.items = [E("col", [], "int"), E("agg", [], "int", name="min"), E("agg", [], "int", name="sum"),
               E("agg", [], "int", name="count")]
    parts = [(1, 5, 10, 2), (2, 7, 7, 1), (1, 3, None, 0), (1, None, 1, 1)]
    assert oracles.combine_aggregates(parts, [0], [1, 2, 3], q) == [(1, 3, 11, 3), (2, 7, 7, 1)]
    assert oracles.combine_aggregates([(1, 1.5, 1, 1)], [0], [1, 2, 3], q) is None  # floats: not exact


def test_queries_are_reproducible_from_the_seed():
    tables = schema.random_tables(random.Random(5))
    again = schema.random_tables(random.Random(5))
    assert schema.create_statements(tables, "shoal") == schema.create_statements(again, "shoal")
    a = Gen(random.Random(9), tables).query().render("shoal")
    b = Gen(random.Random(9), tables).query().render("shoal")
    assert a == b


def test_minimization_keeps_the_failure_and_shrinks():
    tables = schema.random_tables(random.Random(3))
    for seed in range(40):
        q = Gen(random.Random(seed), tables).query()
        if " LIKE " in q.render("shoal"):
            break
    small = minimize.minimize_query(q, lambda c: " LIKE " in c.render("shoal"))
    assert " LIKE " in small.render("shoal")
    assert len(small.render("shoal")) <= len(q.render("shoal"))
    rows = minimize.minimize_rows(tables, lambda ts: sum(len(t.rows) for t in ts) >= 2)
    assert sum(len(t.rows) for t in rows) == 2
