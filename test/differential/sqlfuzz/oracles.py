"""The checks one query gets: shoal against DuckDB, shoal against itself with the optimizer off
(non-optimizing reference execution), and ternary logic partitioning (TLP, Rigger & Su, OOPSLA
2020): with a random predicate p, a query's rows are the rows of the query restricted to p, to
NOT p and to p IS NULL, together; MIN/MAX/SUM/COUNT combine over the three parts."""
import copy
import decimal
import math

from . import compare
from .engines import TIMEOUT
from .sqlast import E, Select

DECOMPOSABLE = {"min", "max", "sum", "count"}


class Finding:
    def __init__(self, kind, detail, sql):
        self.kind, self.detail, self.sql = kind, detail, sql

    def __str__(self):
        return f"[{self.kind}] {self.detail}"


def ordered(q):
    return bool(getattr(q, "order", None))


def check_engines(q, shoal, duck, use_duck=True):
    """Findings of kinds 'optimizer' (optimized vs not), 'duckdb' (rows differ), 'shoal-error'
    (shoal fails where DuckDB answers), 'duckdb-error' (the reverse)."""
    s_sql = q.render("shoal")
    e1, r1 = shoal.run(s_sql)
    e2, r2 = shoal.run(s_sql, reference=True) if e1 != TIMEOUT else (TIMEOUT, None)
    if TIMEOUT in (e1, e2):
        return [], (TIMEOUT, None)
    out = []
    if (e1 is None) != (e2 is None):
        out.append(Finding("optimizer", f"optimized: {e1 or 'ok'}; optimizer off: {e2 or 'ok'}", s_sql))
    elif e1 is None and not compare.same_rows(r1, r2, ordered(q)):
        out.append(Finding("optimizer", "optimized vs off: " + compare.diff_text(r1, r2), s_sql))
    if use_duck:
        ed, rd = duck.run(q.render("duck"))
        if e1 is not None and ed is None:
            out.append(Finding("shoal-error", e1, s_sql))
        elif e1 is None and ed is not None:
            out.append(Finding("duckdb-error", ed, s_sql))
        elif e1 is None and not compare.same_rows(r1, rd, ordered(q)):
            out.append(Finding("duckdb", "shoal vs DuckDB: " + compare.diff_text(r1, rd), s_sql))
    return out, (e1, r1)


def conj(a, b):
    return b if a is None else E("bin", [a, b], "bool", sym="AND")


def partitions(p):
    return [p, E("not", [p], "bool"), E("isnull", [p], "bool", neg=False)]


def has_window(q):
    return any(e.op == "win" for e in q.items)


def has_agg(e):
    if isinstance(e, E):
        if e.op == "agg":
            return True
        return any(has_agg(a) for a in e.args if isinstance(a, E))
    return False


def dedupe(rows):
    seen, out = set(), []
    for r in rows:
        k = tuple(("NaN",) if isinstance(v, float) and math.isnan(v) else v for v in r)
        if k not in seen:
            seen.add(k)
            out.append(r)
    return out


def tlp_plan(q, rng_gen):
    """The clause ('where' or 'having') and predicate p TLP partitions `q` by, or None when q is
    not eligible (LIMIT, window functions, set operations, grouping sets with a new WHERE)."""
    if not isinstance(q, Select) or q.limit is not None or has_window(q) or not getattr(q, "scope", None):
        return None
    if q.having is not None and rng_gen.rng.random() < 0.5:
        return "having", q.having
    if aggregate_shape(q) is False:
        return None
    return "where", rng_gen.predicate(q.scope, 2, 1)


def aggregate_shape(q):
    """None: no aggregation; (keys, aggs): item positions of a decomposable GROUP BY or global
    aggregate; False: aggregation TLP cannot recombine."""
    grouped = q.group_kind is not None or any(has_agg(e) for e in q.items)
    if not grouped:
        return None
    if q.group_kind not in (None, "plain") or q.having is not None:
        return False
    aggs = [k for k, e in enumerate(q.items) if e.op == "agg"]
    keys = [k for k, e in enumerate(q.items) if e.op != "agg"]
    if any(has_agg(q.items[k]) for k in keys) or any(q.items[k].info["name"] not in DECOMPOSABLE or
                                                     q.items[k].info.get("distinct") for k in aggs):
        return False
    rendered = {e.render("shoal") for e in q.items}
    if any(g.render("shoal") not in rendered for g in q.groups):
        return False
    return keys, aggs


def tlp_eval(q, clause, p, shoal):
    """Findings of kind 'tlp' for q partitioned by p in `clause` (none when q is not eligible or
    a part fails: an error in one part only is not a wrong answer)."""
    if not isinstance(q, Select) or q.limit is not None or has_window(q):
        return []
    if clause == "having" and q.having is None:
        return []
    combine = None
    if clause == "where":
        combine = aggregate_shape(q)
        if combine is False:
            return []
    parts, texts = [], []
    for part in partitions(p):
        v = copy.copy(q)
        v.order, v.limit = None, None
        if clause == "having":
            v.having = part
        else:
            v.where = conj(q.where, part)
        sql = v.render("shoal")
        texts.append(sql)
        err, rows = shoal.run(sql)
        if err is not None:
            return []
        parts.append(rows)
    v = copy.copy(q)
    v.order, v.limit = None, None
    if clause == "having":
        v.having = None
    query_text = v.render("shoal")
    err, whole = shoal.run(query_text)
    if err is not None:
        return []
    union = [r for rows in parts for r in rows]
    if combine is not None:
        union = combine_aggregates(union, *combine, q)
        if union is None:
            return []
    if q.distinct:
        union, whole = dedupe(union), dedupe(whole)
    if compare.same_rows(whole, union, False):
        return []
    detail = (f"TLP on the {clause.upper()} with p = {p.render('shoal')}: the query vs the union of its "
              f"p / NOT p / p IS NULL parts: " + compare.diff_text(whole, union))
    return [Finding("tlp", detail, query_text + "\n-- parts:\n" + "\n".join(texts))]


def combine_aggregates(rows, keys, aggs, q):
    """Merges the three parts' rows of a GROUP BY (or global) aggregate: per group, MIN of the
    MINs, SUM of the SUMs and COUNTs. None when a value cannot be combined exactly (NaN, floats)."""
    groups, order = {}, []
    for r in rows:
        k = tuple(r[i] for i in keys)
        if any(isinstance(x, float) for x in k):
            return None
        if k not in groups:
            groups[k] = [None] * len(r)
            order.append(k)
        acc = groups[k]
        for i in aggs:
            v, name = r[i], q.items[i].info["name"]
            if isinstance(v, float):
                return None
            if v is None:
                if name == "count":
                    return None
                continue
            a = acc[i]
            if a is None:
                acc[i] = v
            elif name == "min":
                acc[i] = min(a, v)
            elif name == "max":
                acc[i] = max(a, v)
            else:
                acc[i] = decimal.Decimal(a) + decimal.Decimal(v) if isinstance(v, decimal.Decimal) else a + v
    out = []
    for k in order:
        acc = groups[k]
        row = list(acc)
        for pos, i in enumerate(keys):
            row[i] = k[pos]
        for i in aggs:
            if row[i] is None and q.items[i].info["name"] == "count":
                row[i] = 0
        out.append(tuple(row))
    if not keys and not out:
        return None  # a global aggregate always has one row; three parts give three
    if not keys:
        return out[:1]
    return out
