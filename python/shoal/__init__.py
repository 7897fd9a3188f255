"""shoal: transactional Delta Lake tables on Parquet files, embedded in Python.

    import shoal
    con = shoal.connect("warehouse_dir")
    con.sql("CREATE TABLE t (i BIGINT, s STRING)")
    con.execute("INSERT INTO t VALUES (?, ?)", [1, "one"])
    con.sql("SELECT * FROM t").fetchall()   # [(1, 'one')]

Results are Arrow streams too (the Arrow PyCapsule interface: `pyarrow.table(rel)`,
`other_con.register("t", rel)`). See doc/python.md for the API, the type mapping, threads and
errors.
"""

import re
import sys

from . import _frame, _shoal
from ._shoal import (  # noqa: F401  (the exception classes are the package's API)
    BinderException,
    CatalogException,
    ConcurrentAppendException,
    ConcurrentDeleteDeleteException,
    ConcurrentDeleteReadException,
    ConcurrentTransactionException,
    ConflictException,
    ConnectionException,
    ConstraintException,
    ConversionException,
    Corruption,
    Error,
    Internal,
    InternalException,
    InterruptException,
    InvalidArgument,
    InvalidInputException,
    IOError,
    IOException,
    MetadataChangedException,
    MissingDependencyException,
    NotSupported,
    NotSupportedException,
    OutOfMemoryException,
    OutOfRangeException,
    ParserException,
    ProtocolChangedException,
    TransactionException,
    __version__,
)

__all__ = ["connect", "Connection", "Relation", "Error"]


class Relation:
    """The result of one statement, read from a cursor: every fetch continues where the last
    one stopped, so a second fetchall() returns []. It stays readable after its connection is
    closed."""

    def __init__(self, result):
        self._result = result

    @property
    def columns(self):
        """Column names."""
        return list(self._result.columns)

    @property
    def types(self):
        """Column types in SQL spelling, e.g. 'BIGINT', 'DECIMAL(10,2)'."""
        return list(self._result.types)

    @property
    def statement_type(self):
        """The statement kind: 'SELECT', 'INSERT', 'CREATE TABLE', ..."""
        return self._result.statement_type

    def fetchone(self):
        """The next row as a tuple, or None after the last."""
        rows = self._result.fetch_rows(1)
        return rows[0] if rows else None

    def fetchmany(self, size=1):
        """Up to `size` more rows."""
        return self._result.fetch_rows(max(0, int(size)))

    def fetchall(self):
        """The remaining rows as a list of tuples."""
        return self._result.fetch_rows(-1)

    def fetchnumpy(self):
        """The remaining rows as {column: numpy array}; columns with NULLs are masked arrays."""
        return self._result.fetch_columns()

    def df(self):
        """The remaining rows as a pandas DataFrame."""
        import numpy as np
        import pandas as pd

        cols = self._result.fetch_columns()
        data = {}
        for (name, arr), sql_type in zip(cols.items(), self._result.types):
            data[name] = _series(arr, sql_type, np, pd)
        return pd.DataFrame(data, columns=list(cols.keys()))

    fetchdf = df

    def __arrow_c_stream__(self, requested_schema=None):
        """The whole result as an Arrow C stream in a PyCapsule (the Arrow PyCapsule interface),
        sharing the result's buffers. Every call gives a new stream over all rows, whatever was
        fetched before; the read position does not move. `requested_schema` (an "arrow_schema"
        capsule) is accepted only when it is the result's own schema: shoal does not cast."""
        return self._result.arrow_c_stream(requested_schema)

    def fetch_arrow_reader(self, batch_size=None):
        """The remaining rows as a pyarrow.RecordBatchReader (needs pyarrow), in batches of
        `batch_size` rows (None: the result's own batches, not copied); moves the read position to
        the end, like fetchall()."""
        pa = _pyarrow("fetch_arrow_reader")
        if batch_size is not None and int(batch_size) < 1:
            raise InvalidArgument("batch_size must be at least 1, got %r" % (batch_size,))
        capsule = self._result.fetch_arrow_stream(0 if batch_size is None else int(batch_size))
        return pa.RecordBatchReader._import_from_c_capsule(capsule)

    def fetch_arrow_table(self):
        """The remaining rows as a pyarrow.Table (needs pyarrow); moves the read position to the
        end."""
        return self.fetch_arrow_reader().read_all()

    arrow = fetch_arrow_table

    def __iter__(self):
        while True:
            row = self.fetchone()
            if row is None:
                return
            yield row

    def __repr__(self):
        return "<shoal.Relation %s>" % ", ".join("%s %s" % c for c in zip(self.columns, self.types))


def _pyarrow(what):
    """The pyarrow module, or MissingDependencyException (an ImportError) naming `what`."""
    try:
        import pyarrow
    except ImportError as e:
        raise MissingDependencyException(
            "%s needs pyarrow, which is not installed (%s); without it, hand the relation to any other"
            " consumer of the Arrow PyCapsule interface (rel.__arrow_c_stream__()), or use fetchnumpy() / df()"
            % (what, e)) from e
    return pyarrow


def _series(arr, sql_type, np, pd):
    """A pandas Series for one fetched column: nullable integer / boolean dtypes for columns
    with NULLs, NaN / NaT elsewhere, tz-aware UTC for TIMESTAMP."""
    masked = isinstance(arr, np.ma.MaskedArray)
    if masked:
        data, mask = np.ma.getdata(arr), np.ma.getmaskarray(arr)
        kind = data.dtype.kind
        if kind in "iu":
            s = pd.Series(pd.arrays.IntegerArray(data, mask))
        elif kind == "b":
            s = pd.Series(pd.arrays.BooleanArray(data, mask))
        elif kind == "f":
            s = pd.Series(np.where(mask, np.nan, data))
        elif kind == "M":
            s = pd.Series(np.where(mask, np.datetime64("NaT"), data))
        else:
            s = pd.Series(data, dtype=object)
    else:
        s = pd.Series(arr)
    if sql_type == "TIMESTAMP":
        s = s.dt.tz_localize("UTC")
    return s


class Connection:
    """A connection to a warehouse directory. Statements on one connection run one at a time;
    use cursor() (or connect()) to get one per thread. Usable as a context manager."""

    def __init__(self, handle):
        self._con = handle
        self._registered = set()

    def sql(self, query):
        """Runs `query` (one or more ';'-separated statements) and returns the last one's Relation.
        A name the query reads that is neither a table, a view nor a registered name, but a
        variable of the caller holding a pandas DataFrame or an object with __arrow_c_stream__,
        is read as that data (registered for this call only), as DuckDB's replacement scans do."""
        return self._run(query, None, sys._getframe(1))

    def execute(self, query, parameters=None):
        """Runs `query` with its parameters (`?` or `$1`, `$2`, ...) bound to the values of
        `parameters` (a list or tuple) through prepared statements; returns the last statement's
        Relation. With several statements, each takes the next values. Without `parameters` it is
        sql(query). The caller's DataFrames are found as sql() finds them."""
        return self._run(query, parameters, sys._getframe(1))

    # Names in SQL text, outside '...' strings and -- comments (a "quoted" name counts unquoted).
    _NAME = re.compile(r"'(?:[^']|'')*'|--[^\n]*|([A-Za-z_][A-Za-z0-9_]*)")

    def _caller_data(self, query, frame):
        """{name: data} for the names in `query` that the caller's variables supply."""
        found = {}
        for m in self._NAME.finditer(query):
            name = m.group(1)
            if not name or name in found or name in self._registered:
                continue
            for scope in (frame.f_locals, frame.f_globals):
                if name in scope:
                    value = scope[name]
                    if _frame.is_dataframe(value) or hasattr(value, "__arrow_c_stream__"):
                        found[name] = value
                    break
        if found:
            tables = {row[0].lower() for row in self._con.query("SHOW TABLES").fetch_rows(-1)}
            found = {n: v for n, v in found.items() if n.lower() not in tables}
        return found

    def _run(self, query, parameters, frame):
        data = self._caller_data(query, frame)
        for name, value in data.items():
            self.register(name, value)
        try:
            if parameters is None:
                return Relation(self._con.query(query))
            return Relation(self._con.execute(query, parameters))
        finally:
            for name in data:
                self.unregister(name)

    query = sql

    def begin(self):
        """Starts an explicit transaction (BEGIN)."""
        self._con.query("BEGIN")

    def commit(self):
        """Commits the explicit transaction (COMMIT); a conflict raises its named exception."""
        self._con.query("COMMIT")

    def rollback(self):
        """Abandons the explicit transaction (ROLLBACK)."""
        self._con.query("ROLLBACK")

    def register(self, name, data):
        """Makes `data` readable as table `name` by this connection's later statements: a pandas
        DataFrame, a dict of 1-d arrays / lists, or any object with __arrow_c_stream__ (the Arrow
        PyCapsule interface: a shoal Relation, a pyarrow Table or RecordBatchReader, ...) or such
        an "arrow_array_stream" capsule itself, whose stream is read to its end now. The data is
        copied."""
        if _frame.is_frame(data):
            self._con.register(str(name), _frame.columns(data))
        elif hasattr(data, "__arrow_c_stream__") or type(data).__name__ == "PyCapsule":
            if self._con.closed:  # before taking a stream that can be read only once
                raise ConnectionException("connection is closed")
            capsule = data if type(data).__name__ == "PyCapsule" else data.__arrow_c_stream__()
            try:
                self._con.register_arrow(str(name), capsule)
            finally:
                # Destroyed here, not while the error of a failed registration is pending: a
                # producer's capsule destructor may run Python code (e.g. through ctypes).
                del capsule
        else:
            raise InvalidArgument("register takes a pandas DataFrame, a dict of arrays or an object with"
                                  " __arrow_c_stream__, not %s" % type(data).__name__)
        self._registered.add(str(name))
        return self

    def unregister(self, name):
        """Forgets a registered name."""
        self._con.unregister(str(name))
        self._registered.discard(str(name))
        return self

    def cursor(self):
        """A new connection to the same database (for another thread)."""
        return Connection(self._con.cursor())

    def interrupt(self):
        """Interrupts the statement running on this connection (from another thread); it
        raises InterruptException."""
        self._con.interrupt()

    def close(self):
        """Closes the connection; later use raises ConnectionException."""
        self._con.close()

    @property
    def closed(self):
        return self._con.closed

    def _query_touch(self, query):
        """Runs `query` and reads its fixed-width values in C++ (bench/python_fetch.py's
        baseline); returns how many values it read."""
        return self._con.query_touch(query)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def connect(database, threads=0):
    """Opens (creating if absent) the warehouse directory `database` and connects to it.
    `threads`: worker threads, 0 = one per core."""
    return Connection(_shoal._Connection(str(database), int(threads)))
