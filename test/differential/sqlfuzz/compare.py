"""Result normalization and comparison. Values become None, bool, str (dates as ISO text) or
numbers: int and Decimal (exact), float (compared with a relative tolerance; NaN equals NaN).
Rows compare as multisets unless the query orders every output column."""
import datetime
import decimal
import math

REL_TOL = 1e-9
ABS_TOL = 1e-6


def normalize_shoal(v):
    if isinstance(v, datetime.datetime):
        if v.tzinfo is not None:
            v = v.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        return v.isoformat(sep=" ")
    if isinstance(v, datetime.date):
        return v.isoformat()
    if isinstance(v, decimal.Decimal):
        return v.normalize() if v != 0 else decimal.Decimal(0)
    return v


def normalize_duck(v, t):
    if v is None:
        return None
    if t.startswith("DECIMAL"):
        d = decimal.Decimal(v)
        return d.normalize() if d != 0 else decimal.Decimal(0)
    if t == "TIMESTAMP":
        return datetime.datetime.fromisoformat(v).isoformat(sep=" ")
    if t in ("DOUBLE", "FLOAT"):
        return float(v)
    if t in ("HUGEINT", "BIGINT", "INTEGER", "SMALLINT", "TINYINT", "UBIGINT", "UINTEGER", "USMALLINT", "UTINYINT"):
        return int(v)
    return v


def is_num(v):
    return isinstance(v, (int, float, decimal.Decimal)) and not isinstance(v, bool)


def value_eq(a, b):
    if is_num(a) and is_num(b):
        if isinstance(a, float) or isinstance(b, float):
            fa, fb = float(a), float(b)
            if math.isnan(fa) or math.isnan(fb):
                return math.isnan(fa) and math.isnan(fb)
            if math.isinf(fa) or math.isinf(fb):
                return fa == fb
            return math.isclose(fa, fb, rel_tol=REL_TOL, abs_tol=ABS_TOL)
        return decimal.Decimal(a) == decimal.Decimal(b)
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b or (a == b and type(a) is type(b))
    return a == b


def row_eq(a, b):
    return len(a) == len(b) and all(value_eq(x, y) for x, y in zip(a, b))


def sort_key(row):
    key = []
    for v in row:
        if v is None:
            key.append((0, 0))
        elif isinstance(v, bool):
            key.append((1, int(v)))
        elif is_num(v):
            f = float(v)
            key.append((2, 1e308 if math.isnan(f) else float(f"{f:.8g}")))
        else:
            key.append((3, str(v)))
    return key


def same_rows(a, b, ordered):
    """Whether row lists `a` and `b` hold the same rows (in the same order when `ordered`)."""
    if len(a) != len(b):
        return False
    if ordered:
        return all(row_eq(x, y) for x, y in zip(a, b))
    sa, sb = sorted(a, key=sort_key), sorted(b, key=sort_key)
    if all(row_eq(x, y) for x, y in zip(sa, sb)):
        return True
    rest = list(sb)  # near-equal floats may sort apart: match greedily
    for x in sa:
        for k, y in enumerate(rest):
            if row_eq(x, y):
                del rest[k]
                break
        else:
            return False
    return True


def diff_text(a, b, limit=8):
    """A short description of how row lists a and b differ (multiset difference)."""
    only_a = [r for r in a if not any(row_eq(r, s) for s in b)]
    only_b = [r for r in b if not any(row_eq(r, s) for s in a)]
    return (f"{len(a)} vs {len(b)} rows; only in the first ({len(only_a)}): {only_a[:limit]}; "
            f"only in the second ({len(only_b)}): {only_b[:limit]}")
