"""The decomposition of a single-table aggregate query for shoal.dask.sql (doc/dask.md).

    SELECT <group keys and aggregates> FROM <one table> [WHERE ...] [GROUP BY ...]

splits into one partial query per split of the table's files (the filter, the projection and
partial aggregates run in shoal on each split) and a final reduce that Dask runs over the
partial rows: count, sum, min, max, avg (as sum and count), count(DISTINCT e) in two phases
(distinct (keys, e) pairs per split, then distinct again and counted). The text is only cut
into its clauses here; every expression is parsed, bound and typed by shoal itself (the
partial queries, and the whole query over an empty split for the result's names and types).
"""

import re

from ._shoal import BinderException, NotSupportedException, ParserException

# Clauses a decomposable query may have, in order.
_CLAUSES = ("select", "from", "where", "group by")
_UNSUPPORTED = ("having", "order by", "limit", "union", "intersect", "except", "window", "qualify", "join",
                "lateral", "pivot", "unpivot", "cluster by", "distribute by", "sort by", "offset")


def _flatten(query):
    """`query` with the contents of quotes, comments and parentheses blanked (same length), so
    that clause keywords are found at the top level only."""
    out = []
    depth = 0
    i, n = 0, len(query)
    while i < n:
        c = query[i]
        if c in "'\"`":
            j = i + 1
            while j < n and query[j] != c:
                j += 2 if query[j] == "\\" and c != "`" else 1
            if j >= n:
                raise ParserException("unterminated quote in query: %s" % query[i:i + 40])
            out.append(c + " " * (j - i - 1) + c)
            i = j + 1
            continue
        if query.startswith("--", i):
            j = query.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
            continue
        if c == "(":
            depth += 1
            out.append("(" if depth == 1 else " ")
        elif c == ")":
            depth -= 1
            if depth < 0:
                raise ParserException("unbalanced ')' in query")
            out.append(")" if depth == 0 else " ")
        else:
            out.append(c if depth == 0 else " ")
        i += 1
    if depth:
        raise ParserException("unbalanced '(' in query")
    return "".join(out)


def _split_top(text, flat, sep=","):
    """`text` cut at the top-level occurrences of `sep` (found in `flat`)."""
    parts, start = [], 0
    for m in re.finditer(re.escape(sep), flat):
        parts.append(text[start:m.start()].strip())
        start = m.end()
    parts.append(text[start:].strip())
    return parts


def _word_re(words):
    return re.compile(r"\b(%s)\b" % "|".join(w.replace(" ", r"\s+") for w in words), re.I)


class Query:
    """One decomposed query: group keys, aggregate items and the clauses around them."""

    def __init__(self, text):
        text = text.strip().rstrip(";").strip()
        flat = _flatten(text)
        if re.search(r"\(\s*select\b", text, re.I):
            raise NotSupportedException("shoal.dask.sql: subqueries are not supported (one table, no subquery)")
        if re.search(r"\bover\s*\(", flat, re.I):
            raise NotSupportedException("shoal.dask.sql: window functions are not supported")
        bad = _word_re(_UNSUPPORTED).search(flat)
        if bad:
            raise NotSupportedException(
                "shoal.dask.sql: %s is not supported (single-table SELECT ... WHERE ... GROUP BY only; join Dask "
                "DataFrames of read_table with merge, and sort or limit the result in Dask)" % bad.group(1).upper())
        marks = [(m.start(), m.end(), re.sub(r"\s+", " ", m.group(1).lower()))
                 for m in _word_re(_CLAUSES).finditer(flat)]
        if not marks or marks[0][2] != "select" or marks[0][0] != 0:
            raise NotSupportedException("shoal.dask.sql: only SELECT queries are supported")
        order = [m[2] for m in marks]
        if order != [c for c in _CLAUSES if c in order] or "from" not in order:
            raise ParserException("shoal.dask.sql: expected SELECT ... FROM ... [WHERE ...] [GROUP BY ...]")
        clause = {}
        for k, (start, end, name) in enumerate(marks):
            stop = marks[k + 1][0] if k + 1 < len(marks) else len(text)
            clause[name] = (text[end:stop].strip(), flat[end:stop].strip())
        select, select_flat = clause["select"]
        if re.match(r"distinct\b", select, re.I):
            raise NotSupportedException("shoal.dask.sql: SELECT DISTINCT is not supported (use GROUP BY)")
        source = clause["from"][0]
        if "," in clause["from"][1]:
            raise NotSupportedException("shoal.dask.sql: one table only (joins are Dask merges of read_table)")
        m = re.fullmatch(r"(\S+)(?:\s+(?:as\s+)?([A-Za-z_][A-Za-z0-9_]*))?", source, re.I)
        if not m:
            raise ParserException("shoal.dask.sql: cannot read the FROM clause: %s" % source)
        self.alias = m.group(2) or ""
        self.where = clause.get("where", ("", ""))[0]
        self.group_by = [g for g in _split_top(*clause["group by"])] if "group by" in clause else []
        self.items = _split_top(select, select_flat)
        self.text = text
        # Each item: ("key", expr) or ("agg", fn, arg, distinct)
        self.kinds = [_item_kind(item) for item in self.items]
        self.aggregate = bool(self.group_by) or any(k[0] == "agg" for k in self.kinds)
        if self.aggregate:
            keys = {norm(g) for g in self.group_by}
            for item, kind in zip(self.items, self.kinds):
                if kind[0] == "key" and norm(kind[1]) not in keys:
                    raise BinderException(
                        "shoal.dask.sql: '%s' is neither a GROUP BY expression nor one aggregate call (count, sum, "
                        "min, max, avg; nested aggregates are not decomposed)" % item)

    def from_split(self, name):
        return name + (" AS " + self.alias if self.alias else "")

    def where_sql(self):
        return " WHERE " + self.where if self.where else ""


_AGG = re.compile(r"(count|sum|min|max|avg|mean)\s*\((.*)\)\s*$", re.I | re.S)
_ALIAS = re.compile(r"(?:\s+as\s+|(?<=[\w)`])\s+)([A-Za-z_][A-Za-z0-9_]*|`[^`]*`)\s*$", re.I)
# Words that end an expression or precede its last operand, so never an alias.
_NOT_ALIAS = {"end", "null", "true", "false", "and", "or", "not", "is", "in", "like", "then", "else", "when",
              "between", "div", "rlike", "ilike", "case"}


def _strip_alias(item):
    """The expression of a select item without its alias (`e AS a`, `e a`)."""
    flat = _flatten(item)
    m = _ALIAS.search(flat)
    if not m or m.group(1).lower() in _NOT_ALIAS:
        return item.strip()
    before = flat[:m.start()].rstrip().rsplit(None, 1)
    if not before or before[-1].lower() in _NOT_ALIAS - {"end", "null", "true", "false"}:
        return item.strip()
    return item[:m.start()].strip()


def _item_kind(item):
    expr = _strip_alias(item)
    m = _AGG.match(expr)
    if m and _flatten(expr).count("(") == 1 and _flatten(expr).rstrip().endswith(")"):
        fn, arg = m.group(1).lower(), m.group(2).strip()
        distinct = bool(re.match(r"distinct\b", arg, re.I))
        if distinct:
            arg = arg[len("distinct"):].strip()
            if fn != "count":
                raise NotSupportedException("shoal.dask.sql: only count(DISTINCT ...) is decomposed, not %s" % expr)
        if re.search(r"\b(count|sum|min|max|avg|mean)\s*\(", arg, re.I):
            raise NotSupportedException("shoal.dask.sql: nested aggregate %s" % expr)
        return ("agg", "avg" if fn == "mean" else fn, arg, distinct)
    if re.search(r"\b(count|sum|min|max|avg|mean|stddev|variance|percentile|collect_list|collect_set|"
                 r"approx_count_distinct|first|last|any_value|median)\s*\(", _flatten(expr) + expr, re.I):
        raise NotSupportedException(
            "shoal.dask.sql: '%s' is not one of the decomposed aggregates (count, sum, min, max, avg, "
            "count(DISTINCT e)) as a whole select item" % item)
    return ("key", expr)


def norm(e):
    return re.sub(r"\s+", "", e).lower()
