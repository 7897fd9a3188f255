"""The fuzzer's query tree and its rendering as SQL text for shoal (Spark dialect) or DuckDB.
Everything is parenthesized and every ORDER BY names its NULL order, so the two texts differ only
in string literals (a backslash is an escape in Spark's)."""
from .schema import lit


class E:
    """An expression: `op` names its form, `args` its sub-expressions (E, or Select for the
    subquery forms), `cls` the class of its value (int, double, decimal, string, date, bool);
    `bounded`: far from overflow, so arithmetic may use it; `info`: the form's own data."""

    def __init__(self, op, args, cls, bounded=False, **info):
        self.op, self.args, self.cls, self.bounded, self.info = op, list(args), cls, bounded, info

    def render(self, d):
        i, a = self.info, [x.render(d) for x in self.args]
        op = self.op
        if op == "col":
            return f"{i['alias']}.{i['name']}"
        if op == "lit":
            return lit(i["value"], i["sqltype"], d, typed_null=True)
        if op == "bin":
            sym = "//" if i["sym"] == "div" and d == "duck" else i["sym"]  # integer division
            return f"({a[0]} {sym} {a[1]})"
        if op == "not":
            return f"(NOT {a[0]})"
        if op == "isnull":
            return f"({a[0]} IS {'NOT ' if i['neg'] else ''}NULL)"
        if op == "between":
            return f"({a[0]} {'NOT ' if i['neg'] else ''}BETWEEN {a[1]} AND {a[2]})"
        if op == "in":
            return f"({a[0]} {'NOT ' if i['neg'] else ''}IN ({', '.join(a[1:])}))"
        if op == "like":
            return f"({a[0]} {'NOT ' if i['neg'] else ''}LIKE {a[1]})"
        if op == "case":
            whens = " ".join(f"WHEN {a[k]} THEN {a[k + 1]}" for k in range(0, len(a) - 1, 2))
            return f"(CASE {whens} ELSE {a[-1]} END)"
        if op == "cast":
            return f"CAST({a[0]} AS {i['type']})"
        if op == "func":
            return f"{i['name']}({', '.join(a)})"
        if op == "agg":
            where = ""
            if i.get("filtered"):
                where, a = f" FILTER (WHERE {a[-1]})", a[:-1]
            if not a:
                return f"{i['name']}(*){where}"
            call = f"{i['name']}({'DISTINCT ' if i.get('distinct') else ''}{', '.join(a)}){where}"
            if d == "duck" and i.get("spark_type"):
                call = f"CAST({call} AS {i['spark_type']})"
            return call
        if op == "win":
            n = i["nargs"]
            parts = []
            if i["partition"]:
                parts.append("PARTITION BY " + ", ".join(a[n:n + i["partition"]]))
            keys = a[n + i["partition"]:]
            if keys:
                parts.append("ORDER BY " + ", ".join(f"{k} {o}" for k, o in zip(keys, i["orders"])))
            if i.get("frame"):
                parts.append(i["frame"])
            call = ", ".join(a[:n] + i.get("consts", []))
            return f"{i['name']}({call}) OVER ({' '.join(parts)})"
        if op == "exists":
            return f"({'NOT ' if i['neg'] else ''}EXISTS ({a[0]}))"
        if op == "insub":
            return f"({a[0]} {'NOT ' if i['neg'] else ''}IN ({a[1]}))"
        if op == "scalar":
            return f"({a[0]})"
        raise ValueError(op)


class TableRef:
    def __init__(self, table, alias):
        self.table, self.alias, self.args = table, alias, []

    def render(self, d):
        return f"{self.table} AS {self.alias}"


class Join:
    def __init__(self, kind, left, right, on):
        self.kind, self.args = kind, [left, right] + ([on] if on is not None else [])

    def render(self, d):
        left, right = self.args[0].render(d), self.args[1].render(d)
        if self.kind == "CROSS":
            return f"{left} CROSS JOIN {right}"
        return f"{left} {self.kind} JOIN {right} ON {self.args[2].render(d)}"


class Derived:
    def __init__(self, query, alias):
        self.alias, self.args = alias, [query]

    def render(self, d):
        return f"({self.args[0].render(d)}) AS {self.alias}"


def with_sql(ctes, d):
    if not ctes:
        return ""
    return "WITH " + ", ".join(f"{name} AS ({q.render(d)})" for name, q in ctes) + " "


def limit_sql(q):
    s = f" LIMIT {q.limit}" if q.limit is not None else ""
    return s + (f" OFFSET {q.offset}" if q.offset else "")


def order_sql(order):
    return " ORDER BY " + ", ".join(f"{p} {'DESC' if desc else 'ASC'} NULLS {'FIRST' if nf else 'LAST'}"
                                    for p, desc, nf in order)


class Select:
    """SELECT [DISTINCT] items FROM frm [WHERE] [GROUP BY | GROUPING SETS | ROLLUP | CUBE]
    [HAVING] [ORDER BY ordinals] [LIMIT]. args: items, then frm, where, having, groups (None
    where absent); the item i is named x<i>."""

    def __init__(self, items, frm, where=None, group_kind=None, groups=(), sets=None, having=None,
                 distinct=False, order=None, limit=None):
        self.items, self.frm, self.where, self.having = list(items), frm, where, having
        self.group_kind, self.groups, self.sets = group_kind, list(groups), sets
        self.distinct, self.order, self.limit = distinct, order, limit
        self.offset, self.ctes = None, []

    @property
    def args(self):
        return self.items + [x for x in (self.frm, self.where, self.having) if x is not None] + self.groups

    def render(self, d):
        s = with_sql(self.ctes, d) + "SELECT " + ("DISTINCT " if self.distinct else "")
        s += ", ".join(f"{e.render(d)} AS x{k}" for k, e in enumerate(self.items))
        if self.frm is not None:
            s += " FROM " + self.frm.render(d)
        if self.where is not None:
            s += " WHERE " + self.where.render(d)
        if self.group_kind:
            g = [e.render(d) for e in self.groups]
            if self.group_kind == "plain":
                s += " GROUP BY " + ", ".join(g)
            elif self.group_kind == "sets":
                s += " GROUP BY GROUPING SETS (" + ", ".join(
                    "(" + ", ".join(g[k] for k in st) + ")" for st in self.sets) + ")"
            else:
                s += f" GROUP BY {self.group_kind.upper()} ({', '.join(g)})"
        having = self.having.render(d) if self.having is not None else None
        if d == "duck" and self.group_kind in ("sets", "rollup", "cube"):
            # Spark (Expand + Aggregate) gives no row at all for empty input, DuckDB one row for
            # the () set; every other row counts at least one input row (README.md)
            having = "(count(*) > 0)" if having is None else f"({having} AND (count(*) > 0))"
        if having is not None:
            s += " HAVING " + having
        if self.order:
            s += order_sql(self.order)
        return s + limit_sql(self)

    def width(self):
        return len(self.items)


class SetOp:
    def __init__(self, op, all_, left, right, order=None, limit=None):
        self.op, self.all, self.args, self.order, self.limit = op, all_, [left, right], order, limit
        self.offset, self.ctes = None, []

    def render(self, d):
        s = with_sql(self.ctes, d)
        s += f"{self.args[0].render(d)} {self.op}{' ALL' if self.all else ''} {self.args[1].render(d)}"
        if self.order:
            s += order_sql(self.order)
        return s + limit_sql(self)

    def width(self):
        return self.args[0].width()
