"""shoal: transactional Delta Lake tables on Parquet files, embedded in Python.

    import shoal
    con = shoal.connect("warehouse_dir")
    con.sql("CREATE TABLE t (i BIGINT, s STRING)")
    con.execute("INSERT INTO t VALUES (?, ?)", [1, "one"])
    con.sql("SELECT * FROM t").fetchall()   # [(1, 'one')]

See doc/python.md for the API, the type mapping, threads and errors.
"""

from . import _frame, _params, _shoal
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

    def __iter__(self):
        while True:
            row = self.fetchone()
            if row is None:
                return
            yield row

    def __repr__(self):
        return "<shoal.Relation %s>" % ", ".join("%s %s" % c for c in zip(self.columns, self.types))


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

    def sql(self, query):
        """Runs `query` (one or more ';'-separated statements) and returns the last one's Relation."""
        return Relation(self._con.query(query))

    def execute(self, query, parameters=None):
        """Runs `query` with its `?` bound to `parameters` (a list or tuple); returns a Relation.
        Parameters are written into the statement as literals (shoal/_params.py)."""
        if parameters is not None:
            query = _params.substitute(query, parameters)
        return Relation(self._con.query(query))

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
        """Makes `data` (a pandas DataFrame or a dict of 1-d arrays / lists) readable as table
        `name` by this connection's later statements. The data is copied."""
        self._con.register(str(name), _frame.columns(data))
        return self

    def unregister(self, name):
        """Forgets a registered name."""
        self._con.unregister(str(name))
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
