"""Random queries over random tables (schema.py), as sqlast trees. Only forms whose meaning is the
same in Spark 4 ANSI mode and DuckDB are generated (README.md): no `/`, no casts between classes,
arithmetic only on bounded values, scalar subqueries only as aggregates, LIMIT only under an
ORDER BY of every output column, NULL order always explicit."""
import decimal

from . import schema
from .sqlast import E, Derived, Join, Select, SetOp, TableRef

CMP = ["=", "<>", "<", "<=", ">", ">=", "IS DISTINCT FROM", "IS NOT DISTINCT FROM"]
LIKE_PARTS = ["%", "_", "a", "b", "A", "é", "日", "'", " ", "x_y"]
BIG = 200
MAX_JOIN_ROWS = 100_000  # bound of the rows a FROM clause's joins may produce before filters
ORDERABLE = ["int", "double", "decimal", "string", "date", "bool", "timestamp"]


class ScopeCol:
    def __init__(self, alias, name, cls, bounded, sqltype):
        self.alias, self.name, self.cls, self.bounded, self.sqltype = alias, name, cls, bounded, sqltype

    def ref(self):
        return E("col", [], self.cls, self.bounded, alias=self.alias, name=self.name, sqltype=self.sqltype)


class Gen:
    """Generates one query from `rng` over `tables`. Thread-safety: none (one per thread)."""

    def __init__(self, rng, tables):
        self.rng, self.tables, self.n_alias = rng, list(tables), 0  # CTEs join the list
        # a table of more than BIG rows appears in at most one FROM of a query (the joins stay small)
        self.big_used = False
        self.last_est = 1  # rows bound of the last FROM item or clause (from_item, from_clause)

    # ---- names and scopes
    def alias(self, prefix):
        self.n_alias += 1
        return f"{prefix}{self.n_alias}"

    def table_scope(self, table, alias):
        return [ScopeCol(alias, c.name, c.cls, c.bounded, c.sqltype) for c in table.columns]

    # ---- literals
    def literal(self, cls, like=None):
        r = self.rng
        if cls == "int":
            if like is not None and like.sqltype in schema.INT_TYPES and not like.bounded and r.random() < 0.3:
                col = schema.Column("x", like.sqltype, "int", False)
                return E("lit", [], "int", False, value=schema.fresh_value(r, col), sqltype=like.sqltype)
            return E("lit", [], "int", True, value=r.randint(-25, 25), sqltype="INT")
        if cls == "double":
            v = r.choice([0.0, -0.0, 1.5, -2.25, 10.0, 100.5, float("nan"), float("inf"), round(r.uniform(-500, 500), 1)])
            return E("lit", [], "double", True, value=v, sqltype="DOUBLE")
        if cls == "decimal":
            t = like.sqltype if like is not None and like.sqltype.startswith("DECIMAL") else r.choice(
                ["DECIMAL(38,10)", "DECIMAL(10,2)"])
            if t == "DECIMAL(10,2)":
                return E("lit", [], "decimal", True, value=decimal.Decimal(r.randint(-10**5, 10**5)).scaleb(-2), sqltype=t)
            col = schema.Column("x", t, "decimal", False)
            return E("lit", [], "decimal", False, value=schema.fresh_value(r, col), sqltype=t)
        if cls == "string":
            return E("lit", [], "string", value=r.choice(schema.STRINGS), sqltype="STRING")
        if cls == "date":
            return E("lit", [], "date", value=r.choice(schema.DATES), sqltype="DATE")
        if cls == "bool":
            return E("lit", [], "bool", value=r.random() < 0.5, sqltype="BOOLEAN")
        if cls == "timestamp":
            return E("lit", [], "timestamp", value=r.choice(schema.TIMESTAMPS), sqltype="TIMESTAMP")
        raise ValueError(cls)

    def null(self, cls):
        t = {"int": "INT", "double": "DOUBLE", "decimal": "DECIMAL(10,2)", "string": "STRING", "date": "DATE",
             "bool": "BOOLEAN", "timestamp": "TIMESTAMP"}[cls]
        return E("lit", [], cls, True, value=None, sqltype=t)

    # ---- scalar expressions of a class over a scope
    def cols_of(self, scope, cls, bounded=False):
        return [c for c in scope if c.cls == cls and (c.bounded or not bounded)]

    def expr(self, scope, cls, depth, bounded=False, sub=None):
        """An expression of class `cls`; `sub`: how deep subqueries may nest in it (0/None: none)."""
        r = self.rng
        cols = self.cols_of(scope, cls, bounded)
        if depth <= 0 or r.random() < 0.4:
            if cols and r.random() < 0.8:
                return r.choice(cols).ref()
            if cls == "bool":
                return self.predicate(scope, 0, sub)
            e = self.literal(cls)
            if bounded and not e.bounded:
                e = self.literal(cls)
                e.bounded = True if cls != "decimal" else e.bounded
            return e if (e.bounded or not bounded) else self.null(cls)
        if cls == "bool":
            return self.predicate(scope, depth, sub)
        k = r.random()
        if k < 0.15:
            return E("func", [self.expr(scope, cls, depth - 1, bounded, sub), self.expr(scope, cls, depth - 1, bounded, sub)],
                     cls, bounded, name="coalesce")
        if k < 0.3:
            return E("case", [self.predicate(scope, depth - 1, sub), self.expr(scope, cls, depth - 1, bounded, sub),
                              self.expr(scope, cls, depth - 1, bounded, sub)], cls, bounded)
        if cls == "int":
            if k < 0.6:
                a = self.expr(scope, "int", depth - 1, True, sub)
                if r.random() < 0.5:
                    return E("bin", [a, self.expr(scope, "int", depth - 1, True, sub)], "int", True, sym=r.choice("+-"))
                return E("bin", [a, E("lit", [], "int", True, value=r.randint(-5, 5), sqltype="INT")], "int", True, sym="*")
            if k < 0.66:
                a = self.expr(scope, "int", depth - 1, True, sub)
                if r.random() < 0.5:
                    return E("func", [a, self.expr(scope, "int", depth - 1, True, sub)], "int", True,
                             name=r.choice(["greatest", "least"]))
                divisor = E("lit", [], "int", True, value=r.choice([-3, -1, 2, 3, 7]), sqltype="INT")
                return E("bin", [a, divisor], "int", True, sym=r.choice(["%", "div"]))
            if k < 0.75 and self.cols_of(scope, "string"):
                s = self.expr(scope, "string", depth - 1, False, sub)
                if r.random() < 0.5:
                    return E("func", [s], "int", True, name="length")
                return E("func", [s, E("lit", [], "string", value=r.choice(["a", "b", "日", " "]), sqltype="STRING")],
                         "int", True, name="instr")
            if k < 0.8 and self.cols_of(scope, "timestamp"):
                return E("func", [self.expr(scope, "timestamp", depth - 1, False, sub)], "int", True,
                         name=r.choice(["hour", "minute", "second", "year"]))
            if k < 0.85 and self.cols_of(scope, "date"):
                return E("func", [self.expr(scope, "date", depth - 1, False, sub)], "int", True,
                         name=r.choice(["year", "month", "dayofmonth"]))
            return E("func", [self.expr(scope, "int", depth - 1, True, sub)], "int", True, name="abs")
        if cls == "double":
            a = self.expr(scope, "double", depth - 1, True, sub)
            if k < 0.6:
                return E("bin", [a, self.expr(scope, "double", depth - 1, True, sub)], "double", True, sym=r.choice("+-"))
            if k < 0.7:
                return E("bin", [a, E("lit", [], "double", True, value=r.choice([2.0, -0.5, 3.0]), sqltype="DOUBLE")],
                         "double", True, sym=r.choice(["*", "/"]))
            if k < 0.8 and self.cols_of(scope, "int", True):
                # int / non-zero int is DOUBLE in both dialects
                return E("bin", [self.expr(scope, "int", depth - 1, True, sub),
                                 E("lit", [], "int", True, value=r.choice([-4, 3, 8]), sqltype="INT")],
                         "double", True, sym="/")
            return E("func", [a], "double", True, name="abs")
        if cls == "decimal":
            if self.cols_of(scope, "decimal", True) and k < 0.7:
                return E("bin", [self.expr(scope, "decimal", depth - 1, True, sub),
                                 self.expr(scope, "decimal", depth - 1, True, sub)], "decimal", True, sym=r.choice("+-"))
            return self.expr(scope, cls, 0, bounded, sub)
        if cls == "string":
            if k < 0.5:
                return E("bin", [self.expr(scope, "string", depth - 1, False, sub),
                                 self.expr(scope, "string", depth - 1, False, sub)], "string", sym="||")
            if k < 0.7:
                return E("func", [self.expr(scope, "string", depth - 1, False, sub)], "string",
                         name=r.choice(["upper", "lower", "trim", "reverse"]))
            if k < 0.8:
                return E("func", [self.expr(scope, "string", depth - 1, False, sub),
                                  E("lit", [], "string", value=r.choice(["a", "é", " ", "ab"]), sqltype="STRING"),
                                  E("lit", [], "string", value=r.choice(["", "xy", "日"]), sqltype="STRING")],
                         "string", name="replace")
            return E("func", [self.expr(scope, "string", depth - 1, False, sub),
                              E("lit", [], "int", True, value=r.randint(1, 3), sqltype="INT"),
                              E("lit", [], "int", True, value=r.randint(0, 3), sqltype="INT")], "string", name="substr")
        if cls == "date" and self.cols_of(scope, "timestamp") and k < 0.6:
            return E("cast", [self.expr(scope, "timestamp", depth - 1, False, sub)], "date", type="DATE")
        return self.expr(scope, cls, 0, bounded, sub)

    def some_class(self, scope):
        classes = sorted({c.cls for c in scope})
        return self.rng.choice(classes) if classes else "int"

    def predicate(self, scope, depth, sub=None):
        r = self.rng
        k = r.random()
        if depth > 0 and k < 0.25:
            sym = r.choice(["AND", "OR"])
            return E("bin", [self.predicate(scope, depth - 1, sub), self.predicate(scope, depth - 1, sub)], "bool", sym=sym)
        if depth > 0 and k < 0.32:
            return E("not", [self.predicate(scope, depth - 1, sub)], "bool")
        if sub and depth > 0 and k < 0.45:
            return self.subquery_predicate(scope, sub)
        cls = self.some_class(scope)
        cols = self.cols_of(scope, cls)
        like = r.choice(cols) if cols else None
        a = like.ref() if like is not None and r.random() < 0.7 else self.expr(scope, cls, depth - 1, False, sub)
        k = r.random()
        if k < 0.45:
            b = self.literal(cls, like) if r.random() < 0.6 else self.expr(scope, cls, depth - 1, False, sub)
            return E("bin", [a, b], "bool", sym=r.choice(CMP))
        if k < 0.55:
            return E("isnull", [a], "bool", neg=r.random() < 0.5)
        if k < 0.65:
            return E("between", [a, self.literal(cls, like), self.literal(cls, like)], "bool", neg=r.random() < 0.3)
        if k < 0.78:
            items = [self.literal(cls, like) for _ in range(r.randint(1, 4))]
            if r.random() < 0.2:
                items.append(self.null(cls))
            return E("in", [a] + items, "bool", neg=r.random() < 0.3)
        if k < 0.88 and self.cols_of(scope, "string"):
            s = r.choice(self.cols_of(scope, "string")).ref()
            pat = "".join(r.choice(LIKE_PARTS) for _ in range(r.randint(0, 3)))
            return E("like", [s, E("lit", [], "string", value=pat, sqltype="STRING")], "bool", neg=r.random() < 0.3)
        if self.cols_of(scope, "bool") and r.random() < 0.5:
            return r.choice(self.cols_of(scope, "bool")).ref()
        b = self.expr(scope, cls, depth - 1, False, sub)
        return E("bin", [a, b], "bool", sym=r.choice(CMP))

    # ---- subqueries
    def subquery_predicate(self, outer, sub):
        """EXISTS / NOT EXISTS, [NOT] IN (SELECT ...), or a comparison with a scalar aggregate, over
        one table, correlated with the outer scope or not."""
        r = self.rng
        table = r.choice(self.tables)
        alias = self.alias("s")
        inner = self.table_scope(table, alias)
        where = self.correlation(inner, outer)
        if r.random() < 0.6:
            if sub > 1 and r.random() < 0.3:
                extra = self.subquery_predicate(inner + outer, sub - 1)
            else:
                extra = self.predicate(inner + outer if r.random() < 0.5 else inner, 1)
            where = extra if where is None else E("bin", [where, extra], "bool", sym="AND")
        k = r.random()
        if k < 0.35:
            q = Select([E("lit", [], "int", True, value=1, sqltype="INT")], TableRef(table.name, alias), where)
            return E("exists", [q], "bool", neg=r.random() < 0.4)
        classes = [c for c in sorted({c.cls for c in inner}) if self.cols_of(outer, c)]
        if k < 0.7 and classes:
            cls = r.choice(classes)
            q = Select([r.choice(self.cols_of(inner, cls)).ref()], TableRef(table.name, alias), where)
            return E("insub", [r.choice(self.cols_of(outer, cls)).ref(), q], "bool", neg=r.random() < 0.4)
        agg = self.aggregate(inner, r.choice(["int", "double", "decimal", "string", "date"]), compared=True)
        q = Select([agg], TableRef(table.name, alias), where)
        cmp_side = self.expr(outer, agg.cls, 1) if self.cols_of(outer, agg.cls) else self.literal(agg.cls)
        return E("bin", [cmp_side, E("scalar", [q], agg.cls)], "bool", sym=r.choice(CMP[:6]))

    def scalar_subquery(self, outer):
        """(SELECT agg(...) FROM t WHERE <correlation>) as a value."""
        table = self.rng.choice(self.tables)
        alias = self.alias("s")
        inner = self.table_scope(table, alias)
        agg = self.aggregate(inner, self.some_class(inner), compared=True)
        q = Select([agg], TableRef(table.name, alias), self.correlation(inner, outer))
        return E("scalar", [q], agg.cls, agg.bounded)

    def correlation(self, inner, outer):
        pairs = [(i, o) for i in inner for o in outer if i.cls == o.cls]
        if not pairs or self.rng.random() < 0.2:
            return None
        i, o = self.rng.choice(pairs)
        return E("bin", [i.ref(), o.ref()], "bool", sym=self.rng.choice(["=", "=", "<", "<>", ">="]))

    # ---- aggregates and windows
    def aggregate(self, scope, cls, compared=False):
        """An aggregate call; `compared`: it is compared with another value (no FILTER then)."""
        r = self.rng
        if cls == "int" and r.random() < 0.4 or not self.cols_of(scope, cls):
            if r.random() < 0.5 or not scope:
                return E("agg", [], "int", True, name="count")
            return E("agg", [r.choice(scope).ref()], "int", True, name="count", distinct=r.random() < 0.3)
        arg = self.expr(scope, cls, 1)
        names = ["min", "max"]
        if cls in ("int", "double") and arg.bounded:
            names += ["sum", "avg"]
        if cls == "decimal" and arg.bounded:
            names += ["sum"]
        name = r.choice(names)
        out = "double" if name == "avg" else cls
        args = [arg]
        if r.random() < 0.15 and not compared:  # agg(x) FILTER (WHERE p)
            args.append(self.predicate(scope, 1))
        # DuckDB's SUM of a DECIMAL is DECIMAL(38, s), Spark's DECIMAL(p + 10, s): DuckDB's text casts
        spark_type = f"DECIMAL({min(38, decimal_precision(arg) + 10)},2)" if cls == "decimal" and name == "sum" else None
        return E("agg", args, out, arg.bounded or name in ("sum", "avg"), name=name, distinct=r.random() < 0.2,
                 filtered=len(args) > 1, spark_type=spark_type)

    def window(self, scope, total_key):
        """A window call; `total_key`: a column unique in the input (the table's id) for functions
        that need a total order."""
        r = self.rng
        part = [r.choice(scope).ref()] if r.random() < 0.6 else []
        key = r.choice([c for c in scope if c.cls in ORDERABLE])
        keys, orders = [key.ref()], [self.order_dir()]
        name = r.choice(["rank", "dense_rank", "row_number", "sum", "count", "lag", "lead", "min", "sum_rows",
                         "first_value", "last_value", "ntile", "count_star", "avg", "sum_range", "cume_dist",
                         "percent_rank"])
        if name == "sum_range":
            ints = self.cols_of(scope, "int", True)
            if not ints:
                name = "sum"
            else:
                # a RANGE frame with offsets needs one numeric key
                key = r.choice(ints)
                keys, orders = [key.ref()], [self.order_dir()]
        if name in ("row_number", "lag", "lead", "sum_rows", "first_value", "last_value", "ntile"):
            keys.append(total_key.ref())
            orders.append(self.order_dir())
        args, consts, frame, cls = [], [], None, "int"
        if name in ("sum", "sum_rows"):
            c = self.cols_of(scope, r.choice(["int", "double"]), True) or self.cols_of(scope, "int", True)
            args = [r.choice(c).ref()]
            cls = args[0].cls
            if name == "sum_rows":
                name, frame = "sum", f"ROWS BETWEEN {r.randint(0, 2)} PRECEDING AND {r.choice(['CURRENT ROW', '1 FOLLOWING'])}"
        elif name == "sum_range":
            c = self.cols_of(scope, "int", True)
            args, cls, name = [r.choice(c).ref()], "int", "sum"
            frame = f"RANGE BETWEEN {r.randint(0, 3)} PRECEDING AND {r.choice(['CURRENT ROW', '2 FOLLOWING'])}"
        elif name in ("count", "min"):
            c = r.choice(scope)
            args, cls = [c.ref()], ("int" if name == "count" else c.cls)
        elif name == "count_star":
            name, cls = "count", "int"
            keys, orders = ([], []) if r.random() < 0.5 else (keys, orders)
            consts = ["*"]
        elif name == "avg":
            c = self.cols_of(scope, r.choice(["int", "double"]), True) or self.cols_of(scope, "int", True)
            args, cls = [r.choice(c).ref()], "double"
        elif name in ("first_value", "last_value"):
            c = r.choice(scope)
            args, cls = [c.ref()], c.cls
            frame = r.choice([None, "ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING",
                              "ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING"])
        elif name == "ntile":
            consts = [str(r.randint(1, 4))]
        elif name in ("cume_dist", "percent_rank"):
            cls = "double"
        elif name in ("lag", "lead"):
            c = r.choice(scope)
            args, cls, consts = [c.ref()], c.cls, [str(r.randint(1, 2))]
        # lag, lead, min, first_value... of an unbounded column are unbounded: no arithmetic on them
        bounded = all(a.bounded for a in args)
        return E("win", args + part + keys, cls, bounded, name=name, nargs=len(args), partition=len(part),
                 orders=orders, frame=frame, consts=consts)

    def window_over_groups(self, items, groups):
        """A window function over a grouped query's rows: rank by an aggregate, or a sum of an
        aggregate per group key (`sum(count(*)) OVER (PARTITION BY g)`)."""
        r = self.rng
        aggs = [e for e in items if e.op == "agg"]
        key = r.choice(aggs)
        part = [r.choice(groups)] if groups and r.random() < 0.5 else []
        sums = [e for e in aggs if e.cls in ("int", "double") and e.bounded]
        if sums and r.random() < 0.5:
            arg = r.choice(sums)
            return E("win", [arg] + part, arg.cls, True, name="sum",
                     nargs=1, partition=len(part), orders=[], frame=None, consts=[])
        return E("win", part + [key], "int", True, name=r.choice(["rank", "dense_rank"]), nargs=0,
                 partition=len(part), orders=[self.order_dir()], frame=None, consts=[])

    def order_dir(self):
        return f"{self.rng.choice(['ASC', 'DESC'])} NULLS {self.rng.choice(['FIRST', 'LAST'])}"

    # ---- FROM
    def from_clause(self, depth):
        r = self.rng
        n = r.choice([1, 1, 2, 2, 2, 3])
        frm, scope = self.from_item(depth)
        est = self.last_est
        for _ in range(n - 1):
            right, rscope = self.from_item(depth)
            if est * self.last_est > MAX_JOIN_ROWS:  # keep every query cheap: no join of big inputs
                break
            est *= self.last_est
            kind = r.choice(["INNER", "INNER", "LEFT", "RIGHT", "FULL", "CROSS"])
            on = None
            if kind != "CROSS":
                pairs = [(a, b) for a in scope for b in rscope if a.cls == b.cls]
                conds = []
                if pairs and r.random() < 0.9:
                    a, b = r.choice(pairs)
                    conds.append(E("bin", [a.ref(), b.ref()], "bool", sym="="))
                if not conds or r.random() < 0.3:
                    conds.append(self.predicate(scope + rscope, 1))
                on = conds[0] if len(conds) == 1 else E("bin", conds, "bool", sym="AND")
            frm, scope = Join(kind, frm, right, on), scope + rscope
        self.last_est = est
        return frm, scope

    def pick_table(self, real=False):
        """A table for a FROM: a big one at most once per query; `real`: not a CTE."""
        tables = [t for t in self.tables if (len(t.rows) <= BIG or not self.big_used) and (t.real or not real)]
        t = self.rng.choice(tables)
        if len(t.rows) > BIG:
            self.big_used = True
        return t

    def from_item(self, depth):
        """A table or derived table and its columns; sets self.last_est to a bound of its rows."""
        t = self.pick_table()
        if depth > 0 and self.rng.random() < 0.15:
            q, _ = self.select(depth - 1, allow_order=False)
            est = self.last_est
            k = self.rng.random()
            if k < 0.15:  # a set operation as a derived table
                q.distinct, q.order, q.limit = False, None, None
                right, _ = self.select(depth - 1, allow_order=False, plain=True, classes=[e.cls for e in q.items])
                q = SetOp(self.rng.choice(["UNION", "INTERSECT", "EXCEPT"]), self.rng.random() < 0.5, q, right)
                est += self.last_est
            elif k < 0.3:  # a top-N: ORDER BY every column, LIMIT
                q.order = [(j + 1, self.rng.random() < 0.5, self.rng.random() < 0.5) for j in range(q.width())]
                q.limit = self.rng.randint(0, 5)
            alias = self.alias("d")
            self.last_est = est
            return Derived(q, alias), [ScopeCol(alias, f"x{k}", e.cls, e.bounded and e.cls != "decimal",
                                                e.info.get("sqltype", sqltype_of(e)))
                                       for k, e in enumerate(output_items(q))]
        alias = self.alias("a")
        self.last_est = max(1, t.est if not t.real else len(t.rows))
        return TableRef(t.name, alias), self.table_scope(t, alias)

    # ---- queries
    def query(self, depth=2):
        """A top-level query: a SELECT or a set operation, with ORDER BY of every output column
        (and LIMIT) sometimes."""
        r = self.rng
        ctes = []
        if r.random() < 0.15:  # WITH c1 AS (...): a table the query (and its subqueries) may read twice
            for k in range(r.randint(1, 2)):
                cq, _ = self.select(depth - 1, allow_order=False)
                name = self.alias("cte")
                ctes.append((name, cq))
                cols = [schema.Column(f"x{j}", e.info.get("sqltype", sqltype_of(e)), e.cls,
                                      e.bounded and e.cls != "decimal") for j, e in enumerate(cq.items)]
                t = schema.Table(name, cols, [])
                t.real, t.est = False, self.last_est
                self.tables.append(t)
        if r.random() < 0.15:
            left, _ = self.select(depth - 1, allow_order=False, plain=True)
            right, _ = self.select(depth - 1, allow_order=False, plain=True, classes=[e.cls for e in left.items])
            q = SetOp(r.choice(["UNION", "INTERSECT", "EXCEPT"]), r.random() < 0.5, left, right)
        else:
            q, _ = self.select(depth, allow_order=False)
        if r.random() < 0.3:
            q.order = [(k + 1, r.random() < 0.5, r.random() < 0.5) for k in range(q.width())]
            if r.random() < 0.6:
                q.limit = r.randint(0, 10)
                if r.random() < 0.3:
                    q.offset = r.randint(1, 3)
        q.ctes = ctes
        return q

    def select(self, depth, allow_order, plain=False, classes=None):
        q, scope = self.select_core(depth, plain, classes)
        q.scope = scope
        return q, scope

    def select_core(self, depth, plain, classes):
        r = self.rng
        shape = "plain" if plain or classes else r.choice(["plain", "plain", "agg", "agg", "window"])
        if shape == "window":  # over one table: its id orders rows totally
            t = self.pick_table(real=True)
            alias = self.alias("a")
            frm, scope = TableRef(t.name, alias), self.table_scope(t, alias)
            self.last_est = max(1, len(t.rows))
        else:
            frm, scope = self.from_clause(depth)
        sub = depth
        where = self.predicate(scope, 2, sub) if r.random() < 0.55 else None
        if classes:
            items = [self.expr(scope, c, 1) for c in classes]
            return Select(items, frm, where, distinct=r.random() < 0.2), scope
        if shape == "plain":
            items = [self.expr(scope, self.some_class(scope), 2, sub=sub if r.random() < 0.2 else None)
                     for _ in range(r.randint(1, 4))]
            if sub and r.random() < 0.2:
                items.append(self.scalar_subquery(scope))
            return Select(items, frm, where, distinct=r.random() < 0.2), scope
        if shape == "window":
            total = [c for c in scope if c.name == "id"][0]
            items = [r.choice(scope).ref() for _ in range(r.randint(0, 2))]
            items += [self.window(scope, total) for _ in range(r.randint(1, 2))]
            return Select(items, frm, where), scope
        # no constant keys: GROUP BY 10 is an ordinal in both dialects
        groups = [g for g in (self.expr(scope, self.some_class(scope), 1) if r.random() < 0.2 else r.choice(scope).ref()
                              for _ in range(r.randint(0, 3))) if refs_column(g)]
        kind = None
        sets = None
        if groups:
            kind = r.choice(["plain", "plain", "plain", "sets", "rollup", "cube"])
            if kind == "sets":
                sets = [sorted(r.sample(range(len(groups)), r.randint(0, len(groups)))) for _ in range(r.randint(1, 3))]
        used = set(range(len(groups))) if sets is None else {k for st in sets for k in st}
        items = [g for k, g in enumerate(groups) if k in used and r.random() < 0.8]
        items += [self.aggregate(scope, self.some_class(scope)) for _ in range(r.randint(1, 3))]
        if r.random() < 0.2:
            items.append(self.window_over_groups(items, [g for k, g in enumerate(groups) if k in used]))
        having = None
        if r.random() < 0.3:
            agg = self.aggregate(scope, self.some_class(scope), compared=True)
            having = E("bin", [agg, self.literal(agg.cls)], "bool", sym=r.choice(CMP[:6]))
            if depth > 0 and r.random() < 0.3:  # an uncorrelated subquery in HAVING
                having = E("bin", [having, self.subquery_predicate([], 1)], "bool", sym=r.choice(["AND", "OR"]))
        return Select(items, frm, where, kind, groups, sets, having, distinct=r.random() < 0.1), scope


def refs_column(e):
    return e.op == "col" or any(isinstance(a, E) and refs_column(a) for a in e.args)


def output_items(q):
    """The select items that name a query's output columns (a set operation's: its left side's)."""
    return q.items if isinstance(q, Select) else output_items(q.args[0])


def decimal_precision(e):
    """The precision Spark gives a bounded decimal expression (DECIMAL(10,2) columns and literals,
    + and -, CASE, COALESCE, abs); its scale is 2."""
    if e.op == "bin" and e.info.get("sym") in ("+", "-"):
        return max(decimal_precision(a) for a in e.args) + 1
    if e.op in ("case", "func"):
        return max([decimal_precision(a) for a in e.args if a.cls == "decimal"] or [10])
    return 10


def sqltype_of(e):
    """A SQL type of e's class, for literals compared with it."""
    return {"int": "BIGINT", "decimal": "DECIMAL(38,10)", "double": "DOUBLE", "date": "DATE", "bool": "BOOLEAN",
            "timestamp": "TIMESTAMP"}.get(e.cls, "STRING")
