"""`?` parameters by literal substitution.

Until the engine has prepared statements, Connection.execute(sql, params) writes each
parameter into the SQL text as a literal of its type: strings quoted with '' doubled, DATE /
TIMESTAMP / TIMESTAMP_NTZ literals, DECIMAL and DOUBLE through CAST, X'..' for bytes, [..] for
lists and {..} for dicts. A `?` inside a string, a quoted identifier or a comment is not a
parameter.
"""

import datetime
import decimal
import math

from . import _shoal


def _quote(s):
    return "'" + s.replace("'", "''") + "'"


def literal(value):
    """The SQL literal for a Python value."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "CAST('NaN' AS DOUBLE)"
        if math.isinf(value):
            return "CAST('%sInfinity' AS DOUBLE)" % ("-" if value < 0 else "")
        return "CAST(%s AS DOUBLE)" % _quote(repr(value))
    if isinstance(value, decimal.Decimal):
        if not value.is_finite():
            raise _shoal.InvalidArgument("parameter %r: a DECIMAL must be finite" % (value,))
        sign, digits, exponent = value.as_tuple()
        scale = max(0, -exponent)
        precision = max(1, max(0, len(digits) + exponent) + scale)
        if precision > 38:
            raise _shoal.InvalidArgument("parameter %s needs DECIMAL precision %d (at most 38)" % (value, precision))
        return "CAST(%s AS DECIMAL(%d, %d))" % (_quote(format(value, "f")), precision, scale)
    if isinstance(value, str):
        return _quote(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return "X'%s'" % bytes(value).hex()
    if isinstance(value, datetime.datetime):
        if value.tzinfo is not None and value.utcoffset() is not None:
            utc = value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
            return "TIMESTAMP '%s'" % utc.isoformat(sep=" ", timespec="microseconds")
        return "TIMESTAMP_NTZ '%s'" % value.isoformat(sep=" ", timespec="microseconds")
    if isinstance(value, datetime.date):
        return "DATE '%s'" % value.isoformat()
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    if isinstance(value, dict):
        for k in value:
            if not isinstance(k, str):
                raise _shoal.InvalidArgument("parameter dict keys must be str (a dict is a STRUCT)")
        return "{" + ", ".join("%s: %s" % (_quote(k), literal(v)) for k, v in value.items()) + "}"
    raise _shoal.InvalidArgument("parameter of type %s is not supported" % type(value).__name__)


def _placeholders(sql):
    """Offsets of the `?` that are parameters."""
    out = []
    i, n = 0, len(sql)
    while i < n:
        c = sql[i]
        if c in "'\"`":
            j = i + 1
            while j < n:
                if sql[j] == c:
                    if j + 1 < n and sql[j + 1] == c:
                        j += 2
                        continue
                    break
                j += 1
            i = j + 1
        elif c == "-" and sql.startswith("--", i):
            j = sql.find("\n", i)
            i = n if j < 0 else j + 1
        elif c == "/" and sql.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if sql.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif sql.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            i = j
        else:
            if c == "?":
                out.append(i)
            i += 1
    return out


def substitute(sql, params):
    """`sql` with its `?` replaced by the literals of `params` (a sequence)."""
    if isinstance(params, (str, bytes, dict)) or not hasattr(params, "__len__"):
        raise _shoal.InvalidArgument("parameters must be a list or tuple")
    spots = _placeholders(sql)
    if len(spots) != len(params):
        raise _shoal.InvalidArgument("the statement has %d parameter(s), %d given" % (len(spots), len(params)))
    parts, last = [], 0
    for at, value in zip(spots, params):
        parts.append(sql[last:at])
        parts.append(literal(value))
        last = at + 1
    parts.append(sql[last:])
    return "".join(parts)
