"""shoal.dask: Delta tables read, written and queried by a Dask cluster (doc/dask.md).

    import shoal.dask
    ddf = shoal.dask.read_table("/data/events", columns=["day", "n"], filter="n > 10")
    shoal.dask.write_table(ddf, "/data/copy", job_id="copy-2024-01-01")
    shoal.dask.sql("/data/events", "SELECT day, count(*) AS c FROM t GROUP BY day").compute()
    shoal.dask.execute("/data/events", "DELETE FROM events WHERE n < 0", job_id="purge-1")
    shoal.dask.merge("/data/events", updates_ddf,
                     "MERGE INTO events t USING updates u ON t.id = u.id WHEN MATCHED THEN UPDATE SET *"
                     " WHEN NOT MATCHED THEN INSERT *")

The client plans (which data files, at which version) and commits; each Dask task reads or
writes its share through the shoal engine in the worker process and returns pandas (reads) or
add actions (writes). Nothing here runs a shuffle of its own.
"""

import math
import os
import threading

from . import _dask_sql, _shoal
from ._shoal import BinderException, CatalogException, InvalidInputException, NotSupportedException

__all__ = ["read_table", "write_table", "sql", "execute", "merge", "WriteResult", "ExecuteResult"]

# Target bytes of data files per read partition.
DEFAULT_SPLIT_BYTES = 128 << 20

_local = threading.local()


def _location(uri):
    """(warehouse, table) for a table path: the table is named by its absolute path (as
    delta.`path`), the warehouse is its parent directory. s3:// URIs are passed as they are."""
    uri = str(uri)
    if not uri:
        raise InvalidInputException("table path is empty")
    if "://" in uri:
        return uri.rstrip("/").rsplit("/", 1)[0], uri.rstrip("/")
    path = os.path.abspath(uri)
    return os.path.dirname(path) or "/", path


def _connection(warehouse, threads=0):
    """This thread's connection to `warehouse` (kept for the process's later tasks). The
    client's uses every core (threads=0); a task's uses TASK_THREADS, since Dask runs one task
    per worker thread."""
    cons = getattr(_local, "cons", None)
    if cons is None:
        cons = _local.cons = {}
    con = cons.get((warehouse, threads))
    if con is None:
        con = cons[(warehouse, threads)] = _shoal._Connection(warehouse, threads)
    return con


# shoal threads per Dask task (a Dask worker thread runs one task at a time); the environment
# variable SHOAL_DASK_TASK_THREADS, read when a worker imports this module, changes it.
TASK_THREADS = max(1, int(os.environ.get("SHOAL_DASK_TASK_THREADS", "1")))


def _quote_path(table):
    if "`" in table:
        raise InvalidInputException("table path may not contain a backquote: %s" % table)
    return "delta.`%s`" % table


def _ident(name):
    return "`%s`" % str(name).replace("`", "``")


# ---------------------------------------------------------------- cancellation

# Seconds between a task's looks at whether Dask cancelled it.
CANCEL_POLL_SECONDS = 0.05


class _CancelWatch:
    """Interrupts `con`'s running statement (Connection::Interrupt) when the Dask task running
    this code is cancelled: client.cancel, or a KeyboardInterrupt on the client while this
    module waits for its tasks. A thread polls the worker's state of the task's key; outside a
    distributed worker it does nothing. The statement then fails with InterruptException and
    rolls back (its staged files deleted), freeing the worker thread."""

    def __init__(self, con):
        self._con = con
        self._done = None
        self._thread = None

    def __enter__(self):
        try:
            from distributed import get_worker
            from distributed.worker import thread_state

            worker = get_worker()
            key = thread_state.key
        except (ImportError, ValueError, AttributeError):
            return self
        self._done = threading.Event()

        def watch():
            while not self._done.wait(CANCEL_POLL_SECONDS):
                ts = worker.state.tasks.get(key)
                if ts is None or ts.state in ("cancelled", "released", "forgotten"):
                    self._con.interrupt()
                    return

        self._thread = threading.Thread(target=watch, name="shoal-cancel-watch", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        if self._thread is not None:
            self._done.set()
            self._thread.join()
        return False


# ---------------------------------------------------------------- types

_INT_DTYPES = {"TINYINT": "Int8", "SMALLINT": "Int16", "INT": "Int32", "BIGINT": "Int64", "UBIGINT": "UInt64"}


def _dtype(sql_type):
    """The pandas dtype a partition's column of `sql_type` has (nullable integer and boolean
    dtypes, so that a split with NULLs and one without agree)."""
    if sql_type in _INT_DTYPES:
        return _INT_DTYPES[sql_type]
    if sql_type == "BOOLEAN":
        return "boolean"
    if sql_type == "DOUBLE":
        return "float64"
    if sql_type == "FLOAT":
        return "float32"
    if sql_type in ("DATE", "TIMESTAMP_NTZ"):
        return "datetime64[ns]"
    if sql_type == "TIMESTAMP":
        return "datetime64[ns, UTC]"
    return "object"


def _meta(names, types):
    import pandas as pd

    return pd.DataFrame({n: pd.Series([], dtype=_dtype(t)) for n, t in zip(names, types)}, columns=list(names))


def _conform(df, meta):
    """`df` with `meta`'s column names and dtypes."""
    df.columns = list(meta.columns)
    for name, dtype in meta.dtypes.items():
        if str(df[name].dtype) != str(dtype):
            df[name] = df[name].astype(dtype)
    return df


def _sql_type_of(dtype):
    """The SQL type a pandas dtype is written as (CREATE TABLE of write_table)."""
    import pandas as pd

    name = str(dtype)
    if isinstance(dtype, pd.DatetimeTZDtype):
        return "TIMESTAMP"
    kinds = {"Int8": "TINYINT", "Int16": "SMALLINT", "Int32": "INT", "Int64": "BIGINT", "UInt8": "SMALLINT",
             "UInt16": "INT", "UInt32": "BIGINT", "UInt64": "UBIGINT", "int8": "TINYINT", "int16": "SMALLINT",
             "int32": "INT", "int64": "BIGINT", "uint8": "SMALLINT", "uint16": "INT", "uint32": "BIGINT",
             "uint64": "UBIGINT", "float32": "FLOAT", "float64": "DOUBLE", "Float32": "FLOAT", "Float64": "DOUBLE",
             "bool": "BOOLEAN", "boolean": "BOOLEAN"}
    if name in kinds:
        return kinds[name]
    if name.startswith("datetime64"):
        return "TIMESTAMP_NTZ"
    if name in ("object", "string"):
        return "STRING"
    raise NotSupportedException("write_table: columns of dtype %s cannot be written" % name)


def _family(sql_type):
    """A coarse type family for the schema check of write_table."""
    if sql_type in _INT_DTYPES or sql_type in ("FLOAT", "DOUBLE") or sql_type.startswith("DECIMAL"):
        return "number"
    if sql_type in ("DATE", "TIMESTAMP", "TIMESTAMP_NTZ"):
        return "datetime"
    if sql_type == "BOOLEAN":
        return "boolean"
    if sql_type in ("STRING", "BINARY") or sql_type.startswith(("ARRAY", "STRUCT", "MAP")):
        return "object"
    return sql_type


def _dtype_family(dtype):
    name = str(dtype)
    if name in ("object", "string"):
        return "object"
    return _family(_sql_type_of(dtype))


# ---------------------------------------------------------------- read


def _plan(uri, filter, version):
    warehouse, table = _location(uri)
    con = _connection(warehouse)
    plan = con.plan_table_files(table, filter or "", None if version is None else int(version))
    return warehouse, table, plan


def _check_columns(plan, columns):
    names = plan["column_names"]
    if columns is None:
        return list(names), list(plan["column_types"])
    if isinstance(columns, str):
        columns = [columns]
    lower = {n.lower(): i for i, n in enumerate(names)}
    out_names, out_types = [], []
    for c in columns:
        i = lower.get(str(c).lower())
        if i is None:
            raise BinderException("column '%s' does not exist in table %s (columns: %s)"
                                  % (c, plan["root"], ", ".join(names)))
        out_names.append(names[i])
        out_types.append(plan["column_types"][i])
    return out_names, out_types


def _balanced_groups(files, target_bytes):
    """Files grouped into bins of about target_bytes each (largest first into the lightest bin)."""
    total = sum(max(f["size_bytes"], 1) for f in files)
    n = max(1, min(len(files), math.ceil(total / max(target_bytes, 1))))
    bins = [[0, []] for _ in range(n)]
    for f in sorted(files, key=lambda f: -f["size_bytes"]):
        b = min(bins, key=lambda b: b[0])
        b[0] += max(f["size_bytes"], 1)
        b[1].append(f)
    return [b[1] for b in bins if b[1]]


def _file_range(f, plan, index, index_type):
    """(min, max) of column `index` in file f from partition values or log statistics, or None."""
    import json

    import pandas as pd

    if index in plan["partition_columns"]:
        v = f["partition_values"][plan["partition_columns"].index(index)]
        if v is None:
            return None
        lo = hi = v
    else:
        if not f["stats_json"]:
            return None
        s = json.loads(f["stats_json"])
        if s.get("nullCount", {}).get(index, 1) != 0 or index not in s.get("minValues", {}):
            return None
        lo, hi = s["minValues"][index], s["maxValues"].get(index)
        if hi is None:
            return None
    try:
        if index_type in _INT_DTYPES:
            return int(lo), int(hi)
        if index_type in ("DOUBLE", "FLOAT"):
            return float(lo), float(hi)
        if index_type == "STRING":
            # Log statistics may hold truncated strings (a max prefix is not a bound).
            return (lo, hi) if index in plan["partition_columns"] else None
        if index_type in ("DATE", "TIMESTAMP_NTZ"):
            return pd.Timestamp(lo), pd.Timestamp(hi)
    except (TypeError, ValueError):
        return None
    return None


def _ordered_groups(files, plan, index, index_type, target_bytes):
    """Files in index order grouped into partitions with disjoint index ranges, and the
    divisions; None when some file's range is unknown or ranges overlap."""
    ranged = []
    for f in files:
        r = _file_range(f, plan, index, index_type)
        if r is None:
            return None
        ranged.append((r, f))
    ranged.sort(key=lambda x: (x[0][0], x[0][1]))
    groups, bounds = [], []
    for (lo, hi), f in ranged:
        if groups and (bounds[-1][1] < lo) and bounds[-1][2] >= target_bytes:
            groups.append([f])
            bounds.append([lo, hi, f["size_bytes"]])
        elif groups:
            groups[-1].append(f)
            bounds[-1][1] = max(bounds[-1][1], hi)
            bounds[-1][2] += f["size_bytes"]
        else:
            groups.append([f])
            bounds.append([lo, hi, f["size_bytes"]])
    divisions = [b[0] for b in bounds] + [bounds[-1][1]]
    return groups, tuple(divisions)


def _query_split(paths, warehouse, table, version, select, raw=False):
    """The result of the query `select[0] + <split> + select[1]` over the data files `paths` of
    `table` at `version`, as pandas (raw: the extension's result)."""
    con = _connection(warehouse, TASK_THREADS)
    name = "__shoal_split"
    con.register_table_files(name, table, int(version), list(paths))
    try:
        with _CancelWatch(con):
            result = con.query(select[0] + name + select[1])
    finally:
        con.unregister(name)
    return result if raw else _relation_frame(result)


def _split_meta(warehouse, table, version, select):
    """The query over an empty split, run here on the client: shoal binds it (its errors are
    raised now, before any task runs) and names and types its columns."""
    r = _query_split([], warehouse, table, version, select, raw=True)
    return _meta(list(r.columns), list(r.types))


def _conformed_split(paths, warehouse, table, version, select, meta):
    return _conform(_query_split(paths, warehouse, table, version, select), meta)


def _read_split(paths, warehouse, table, version, select, meta, index):
    """One partition of read_table, with meta's dtypes."""
    df = _conform(_query_split(paths, warehouse, table, version, select), meta)
    if index is not None:
        df = df.set_index(index).sort_index()
    return df


def _relation_frame(result):
    from . import Relation

    return Relation(result).df()


def read_table(uri, columns=None, filter=None, version=None, index=None, split_bytes=DEFAULT_SPLIT_BYTES):
    """The Delta table at `uri` as a dask.dataframe.DataFrame.

    The client loads the snapshot once (`version`: time travel; default latest) and prunes its
    data files with `filter` (a SQL boolean expression over the table's columns) by partition
    values and log statistics; the files left are grouped into partitions of about
    `split_bytes` each, and every partition is read by one task through the shoal engine
    (row-group and page pruning, Prewhere, deletion vectors), `filter` applied exactly.

    `index`: a column to use as the index; when every file's range of it is known (a partition
    column, or numeric / date log statistics without NULLs), partitions are built in index
    order with known divisions, else the divisions are unknown. Integer and boolean columns
    have pandas' nullable dtypes (Int64, boolean)."""
    import dask.dataframe as dd

    warehouse, table, plan = _plan(uri, filter, version)
    names, types = _check_columns(plan, columns)
    if index is not None:
        index_names, index_types = _check_columns(plan, [index])
        index, index_type = index_names[0], index_types[0]
        if index not in names:
            names, types = names + [index], types + [index_type]
    meta = _meta(names, types)
    where = " WHERE %s" % filter if filter else ""
    select = ("SELECT %s FROM " % ", ".join(_ident(n) for n in names), where)
    files = plan["files"]
    divisions = None
    if not files:
        groups = [[]]
    elif index is not None:
        ordered = _ordered_groups(files, plan, index, index_type, split_bytes)
        if ordered is None:
            groups = _balanced_groups(files, split_bytes)
        else:
            groups, divisions = ordered
    else:
        groups = _balanced_groups(files, split_bytes)
    out_meta = meta.set_index(index) if index is not None else meta
    paths = [tuple(f["path"] for f in g) for g in groups]
    token = "%s-%d-%r-%r-%r-%d" % (table, plan["version"], filter, names, index, split_bytes)
    return dd.from_map(_read_split, paths, args=(warehouse, table, plan["version"], select, meta, index),
                       meta=out_meta, divisions=divisions, enforce_metadata=False, label="shoal-read-table",
                       token=token)


# ---------------------------------------------------------------- write

# Called in the worker after a partition's files are staged, before the task returns (tests
# use it to kill a worker at the worst moment: files written, not reported).
_after_stage_hook = None


def _stage_partition(pdf, warehouse, table, columns):
    """Writes one partition into data files of `table` without committing; returns
    {"add_actions": [...], "rows": n} (or {"error": exception} so the client can clean up)."""
    try:
        con = _connection(warehouse, TASK_THREADS)
        name = "__shoal_partition"
        from . import _frame

        con.register(name, _frame.columns(pdf))
        try:
            cols = ", ".join(_ident(c) for c in columns)
            with _CancelWatch(con):
                staged = con.stage_insert("INSERT INTO %s (%s) SELECT %s FROM %s"
                                          % (_quote_path(table), cols, cols, name))
        finally:
            con.unregister(name)
        if _after_stage_hook is not None:
            _after_stage_hook(staged)
        return {"add_actions": staged["add_actions"], "rows": staged["rows"]}
    except Exception as e:  # reported to the client, which deletes the other tasks' files
        return {"error": e}


def _table_exists(warehouse, table):
    try:
        _connection(warehouse).plan_table_files(table, "FALSE", None)
        return True
    except CatalogException:
        return False


def _check_schema(meta, plan, partition_by):
    """Named errors for a DataFrame that does not fit the table's columns."""
    names = plan["column_names"]
    types = dict(zip((n.lower() for n in names), plan["column_types"]))
    given = [str(c) for c in meta.columns]
    if len({c.lower() for c in given}) != len(given):
        raise InvalidInputException("write_table: the DataFrame has duplicate column names: %s" % given)
    missing = [n for n in names if n.lower() not in {c.lower() for c in given}]
    extra = [c for c in given if c.lower() not in types]
    if missing or extra:
        raise InvalidInputException(
            "write_table: the DataFrame's columns do not match table %s (%s): missing %s, not in the table %s"
            % (plan["root"], ", ".join(names), missing, extra))
    for c in given:
        want = _family(types[c.lower()])
        have = _dtype_family(meta[c].dtype)
        if have != want and not (have == "object" and want not in ("number", "boolean")):
            raise InvalidInputException("write_table: column '%s' has dtype %s, but table %s stores it as %s"
                                        % (c, meta[c].dtype, plan["root"], types[c.lower()]))
    if partition_by is not None:
        want = [p.lower() for p in ([partition_by] if isinstance(partition_by, str) else partition_by)]
        if want != [p.lower() for p in plan["partition_columns"]]:
            raise InvalidInputException("write_table: partition_by %s does not match table %s, partitioned by %s"
                                        % (list(partition_by), plan["root"], plan["partition_columns"]))


def _create_table(con, table, meta, partition_by):
    cols = ", ".join("%s %s" % (_ident(c), _sql_type_of(meta[c].dtype)) for c in meta.columns)
    parts = ""
    if partition_by:
        parts = " PARTITIONED BY (%s)" % ", ".join(
            _ident(p) for p in ([partition_by] if isinstance(partition_by, str) else partition_by))
    con.query("CREATE TABLE %s (%s)%s" % (_quote_path(table), cols, parts))


def _run_all(tasks, client=None, discard=None):
    """Computes every delayed task, also when some fail: [(result or None, exception or None)].
    `client`: a distributed Client; default the current one, else Dask's local scheduler.
    `discard(results)`: cleans up the results of finished tasks when the wait is interrupted."""
    import dask

    if client is None:
        try:
            from distributed import default_client
            client = default_client()
        except (ImportError, ValueError):
            client = None
    if client is None:
        out = []
        for r in dask.compute(*tasks):
            out.append((None, r["error"]) if "error" in r else (r, None))
        return out
    from distributed import wait

    futures = client.compute(tasks)
    try:
        wait(futures)
    except BaseException:
        # KeyboardInterrupt (or another error) while waiting: cancel every task (the running
        # ones are interrupted inside their workers, _CancelWatch) and hand the results that
        # did arrive to `discard`, since nothing will commit them.
        client.cancel(futures)
        if discard is not None:
            done = [f.result() for f in futures if f.status == "finished"]
            try:
                discard([r for r in done if "error" not in r])
            except Exception:  # noqa: BLE001 - the interrupt is the error to raise
                pass
        raise
    out = []
    for f in futures:
        if f.status == "finished":
            r = f.result()
            out.append((None, r["error"]) if "error" in r else (r, None))
        else:
            try:
                error = f.exception()
            except BaseException as e:  # a cancelled future raises CancelledError
                error = e
            out.append((None, error))
    return out


class WriteResult(dict):
    """What write_table did: version, rows, files, already_committed (attributes and keys)."""

    __getattr__ = dict.__getitem__


def _job_txn(job_id):
    if job_id is None:
        return "", -1
    if isinstance(job_id, tuple):
        app_id, version = job_id
        return str(app_id), int(version)
    return str(job_id), 0


def write_table(ddf, uri, mode="append", partition_by=None, job_id=None):
    """Writes the Dask DataFrame `ddf` to the Delta table at `uri` in one commit.

    Each partition is written by its worker into data files (as INSERT writes them: LocalSort,
    statistics, page index, partition directories) without committing; the client commits all
    of their add actions in one Delta commit under the ordinary conflict rules.

    mode: "append", "overwrite" (the commit also removes every file the table had) or "error"
    (CatalogException when the table exists). A missing table is created first, with the
    DataFrame's columns and `partition_by`. `job_id` (a string, or (app_id, version)) is
    recorded as the Delta txn action (appId, version): a job whose id the table already has
    commits nothing (already_committed), so a resubmitted job never commits twice.

    The DataFrame's index is not written (reset_index() first to keep it). A failed job
    commits nothing and deletes the files its tasks reported; files of a worker that died
    before reporting are not in the log and VACUUM reclaims them."""
    import dask

    if mode not in ("append", "overwrite", "error"):
        raise InvalidInputException("write_table: mode must be 'append', 'overwrite' or 'error', not %r" % (mode,))
    warehouse, table = _location(uri)
    con = _connection(warehouse)
    meta = ddf._meta
    app_id, app_version = _job_txn(job_id)
    created = False
    if _table_exists(warehouse, table):
        if mode == "error":
            raise CatalogException("write_table: table %s already exists (mode='error')" % table)
    else:
        if partition_by:
            for p in [partition_by] if isinstance(partition_by, str) else partition_by:
                if p not in meta.columns:
                    raise InvalidInputException("write_table: partition column '%s' is not a column" % p)
        _create_table(con, table, meta, partition_by)
        created = True
    try:
        plan = con.plan_table_files(table, "FALSE", None)
        _check_schema(meta, plan, partition_by)
        columns = [str(c) for c in meta.columns]
        tasks = [dask.delayed(_stage_partition, pure=False)(part, warehouse, table, columns)
                 for part in ddf.to_delayed()]
        results = _run_all(tasks, discard=lambda done: con.discard_staged(
            table, [a for r in done for a in r["add_actions"]]))
        actions = [a for r, _ in results if r for a in r["add_actions"]]
        errors = [e for _, e in results if e is not None]
        if errors:
            if actions:
                con.discard_staged(table, actions)
            raise errors[0]
        rows = sum(r["rows"] for r, _ in results if r)
        try:
            r = con.commit_staged(table, actions, overwrite=(mode == "overwrite"), read_version=plan["version"],
                                  app_id=app_id, app_version=app_version)
        except BaseException:
            # Never deletes a file the table holds, so safe even if the commit's outcome is unknown.
            con.discard_staged(table, actions)
            raise
    except BaseException:
        if created:
            _drop_created(con, table)
        raise
    return WriteResult(version=r["version"], rows=0 if r["already_committed"] else rows, files=r["files"],
                       already_committed=r["already_committed"])


def _drop_created(con, table):
    """Drops a table write_table created, when the job failed before its data commit."""
    try:
        plan = con.plan_table_files(table, "", None)
        if plan["version"] == 0:
            con.query("DROP TABLE %s" % _quote_path(table))
    except Exception:  # noqa: BLE001 - the job's own error is the one to raise
        pass


# ---------------------------------------------------------------- DML

# Called on the client with the staged changes just before execute commits them (tests use it
# to commit another job in between, deterministically).
_before_commit_hook = None


def _stage_statement(paths, warehouse, table, statement, version):
    """Runs `statement` on the data files `paths` of `table` at `version` without committing;
    returns the staged changes (or {"error": exception} so the client can clean up)."""
    try:
        con = _connection(warehouse, TASK_THREADS)
        with _CancelWatch(con):
            return con.stage_statement(table, statement, int(version), list(paths))
    except Exception as e:  # reported to the client, which deletes the other tasks' files
        return {"error": e}


def _first_keyword(sql):
    """The statement's first word, upper-cased, after whitespace and comments."""
    import re

    rest = sql
    while True:
        rest = rest.lstrip()
        if rest.startswith("--"):
            rest = rest.split("\n", 1)[1] if "\n" in rest else ""
        elif rest.startswith("/*"):
            rest = rest.split("*/", 1)[1] if "*/" in rest else ""
        else:
            break
    m = re.match(r"[A-Za-z]+", rest)
    return m.group(0).upper() if m else ""


class ExecuteResult(dict):
    """What execute did: version, already_committed, files (data files added or changed) and the
    statement's metrics summed over the workers (num_affected_rows, ...), as attributes and keys."""

    __getattr__ = dict.__getitem__


def execute(uri, statement, client=None, job_id=None, split_bytes=DEFAULT_SPLIT_BYTES):
    """Runs one UPDATE or DELETE on the Delta table at `uri` (the statement names it by its
    directory name or as delta.`<absolute path>`) on a Dask cluster, in one commit (a MERGE is
    InvalidInputException here: shoal.dask.merge).

    The client binds the statement (a missing column, another statement kind or another table
    raise here, before anything is scheduled), pins the latest version and plans its data files
    pruned by the statement's WHERE; the files are grouped into tasks of about `split_bytes`.
    Each task runs the statement on exactly its files in a transaction that is never committed
    and returns that transaction's read set and staged changes (rows deleted per file, rewritten
    and change data files). The client commits them all as ONE transaction under the ordinary
    conflict rules: a job that lost the race to a commit changing other rows of the same files
    rebases and commits; one changing the same rows raises Delta's named conflict (e.g.
    ConcurrentDeleteDeleteException) and its staged files are deleted.

    `job_id` (a string, or (app_id, version)) is recorded as the Delta txn action: a job whose id
    the table has commits nothing (already_committed). `client`: a distributed Client (default:
    the current one, else Dask's local scheduler)."""
    import dask

    warehouse, table = _location(uri)
    con = _connection(warehouse)
    app_id, app_version = _job_txn(job_id)
    if _first_keyword(str(statement)) == "MERGE":
        # Run per group of files, its NOT MATCHED inserts would be made once per group.
        raise InvalidInputException("execute runs UPDATE and DELETE; a MERGE runs with shoal.dask.merge")
    plan = con.plan_statement_files(table, str(statement), None)
    version = plan["version"]
    groups = _balanced_groups(plan["files"], split_bytes) if plan["files"] else [[]]
    tasks = [dask.delayed(_stage_statement, pure=False)(tuple(f["path"] for f in g), warehouse, table,
                                                        str(statement), version)
             for g in groups]
    results = _run_all(tasks, client, discard=lambda done: con.discard_staged_changes(table, done))
    changes = [r for r, _ in results if r]
    errors = [e for _, e in results if e is not None]
    if errors:
        if changes:
            con.discard_staged_changes(table, changes)
        raise errors[0]
    return _commit_changes(con, table, changes, version, app_id, app_version, len(tasks))


def _commit_changes(con, table, changes, version, app_id, app_version, tasks):
    """Commits the workers' staged changes in one commit and sums their metrics (none for a
    replayed job). A conflict deletes the staged files in the commit; after another error (I/O:
    the commit's outcome unknown) they are kept, since they may be live now (VACUUM reclaims them
    if not)."""
    if _before_commit_hook is not None:
        _before_commit_hook(changes)
    r = con.commit_staged_changes(table, changes, read_version=version, app_id=app_id, app_version=app_version)
    metrics = {}
    if not r["already_committed"]:
        for c in changes:
            for name, value in zip(c["metric_names"], c["metrics"]):
                metrics[name] = metrics.get(name, 0) + value
    return ExecuteResult(version=r["version"], already_committed=r["already_committed"], files=r["files"],
                         tasks=tasks, **metrics)


_SPLIT = "__shoal_split"
_SOURCE_ROW = "__shoal_source_row"


def _merge_split(paths, warehouse, table, version, parts, source, numbered):
    """One group of target files of a distributed MERGE: runs its matched clauses with the whole
    `source` on `paths` without committing, and lists the source rows (numbered by _SOURCE_ROW)
    the ON condition matches there. Returns {"changes": staged or None, "matched": [row, ...]}
    (or {"error": exception})."""
    try:
        from . import _frame

        con = _connection(warehouse, TASK_THREADS)
        name = parts["source_name"]
        out = {"changes": None, "matched": []}
        try:
            with _CancelWatch(con):
                if parts["matched_sql"]:
                    con.register(name, _frame.columns(source))
                    out["changes"] = con.stage_statement(table, parts["matched_sql"], int(version), list(paths))
                if parts["insert_sql"]:
                    con.register(name, _frame.columns(numbered))
                    con.register_table_files(_SPLIT, table, int(version), list(paths))
                    rows = _relation_frame(con.query(parts["matched_rows_sql"]))
                    out["matched"] = [int(v) for v in rows.iloc[:, 0]]
        except BaseException:
            if out["changes"]:
                con.discard_staged_changes(table, [out["changes"]])
            raise
        finally:
            con.unregister(name)
            con.unregister(_SPLIT)
        return out
    except Exception as e:  # reported to the client, which deletes the other tasks' files
        return {"error": e}


def merge(uri, source, statement, client=None, job_id=None, split_bytes=DEFAULT_SPLIT_BYTES):
    """Runs one MERGE INTO the Delta table at `uri` whose source is the DataFrame `source` (Dask
    or pandas), registered under the name the statement's USING gives, on a Dask cluster, in
    one commit.

    The source is computed once on the client and broadcast to every task as pandas: it must fit
    in one worker's memory. The target's files (all of them: a MERGE does not prune by its ON)
    are grouped into tasks of about `split_bytes`; each task runs the WHEN MATCHED and WHEN NOT
    MATCHED BY SOURCE clauses on its files with the whole source (so a target row matched by two
    source rows is the same error as in one process) and reports which source rows matched. The
    client then runs the WHEN NOT MATCHED [BY TARGET] clauses once, on the source rows no task
    matched, and commits every task's changes and those inserts as ONE transaction, under the
    ordinary (row-level) conflict rules, as execute does. `job_id` and `client` as for execute.

    Returns ExecuteResult(version, already_committed, files, tasks, num_affected_rows,
    num_updated_rows, num_deleted_rows, num_inserted_rows)."""
    import dask
    import pandas as pd

    warehouse, table = _location(uri)
    con = _connection(warehouse)
    app_id, app_version = _job_txn(job_id)
    parts = con.split_merge_statement(table, str(statement), _SPLIT, _SOURCE_ROW)
    frame = source.compute() if hasattr(source, "dask") else source
    if not isinstance(frame, pd.DataFrame):
        raise InvalidInputException("merge: the source must be a Dask or pandas DataFrame, not %s"
                                    % type(source).__name__)
    frame = frame.reset_index(drop=True)
    if _SOURCE_ROW in frame.columns:
        raise InvalidInputException("merge: the source may not have a column named %s" % _SOURCE_ROW)
    numbered = frame.assign(**{_SOURCE_ROW: range(len(frame))})
    from . import _frame

    name = parts["source_name"]
    con.register(name, _frame.columns(frame.head(0)))
    try:
        plan = con.plan_statement_files(table, str(statement), None)  # binds the whole MERGE here
        version = plan["version"]
        groups = _balanced_groups(plan["files"], split_bytes) if plan["files"] else [[]]
        if client is None:
            try:
                from distributed import default_client
                client = default_client()
            except (ImportError, ValueError):
                client = None
        shipped, shipped_numbered = frame, numbered
        if client is not None:
            shipped, shipped_numbered = client.scatter([frame, numbered], broadcast=True)
        tasks = [dask.delayed(_merge_split, pure=False)(tuple(f["path"] for f in g), warehouse, table, version,
                                                        parts, shipped, shipped_numbered)
                 for g in groups]
        results = _run_all(tasks, client, discard=lambda done: con.discard_staged_changes(
            table, [r["changes"] for r in done if r["changes"]]))
        changes = [r["changes"] for r, _ in results if r and r["changes"]]
        errors = [e for _, e in results if e is not None]
        if errors:
            if changes:
                con.discard_staged_changes(table, changes)
            raise errors[0]
        if parts["insert_sql"]:
            matched = set()
            for r, _ in results:
                matched.update(r["matched"])
            unmatched = frame[~numbered[_SOURCE_ROW].isin(matched)].reset_index(drop=True)
            con.register(name, _frame.columns(unmatched))
            try:
                changes.append(con.stage_statement(table, parts["insert_sql"], version, []))
            except BaseException:
                if changes:
                    con.discard_staged_changes(table, changes)
                raise
    finally:
        con.unregister(name)
    return _commit_changes(con, table, changes, version, app_id, app_version, len(tasks))


# ---------------------------------------------------------------- sql


def _plan_for_where(uri, where, version):
    """The plan pruned by the query's WHERE when it binds on the table alone (a qualified
    `t.x` does not), else unpruned: each split applies the WHERE exactly either way."""
    if where:
        try:
            return _plan(uri, where, version)
        except (BinderException, _shoal.ParserException):
            pass  # the whole query, bound next, raises the error if it is one
    return _plan(uri, "", version)


def sql(uri, query, version=None, split_bytes=DEFAULT_SPLIT_BYTES):
    """The result of a single-table query over the Delta table at `uri` as a Dask DataFrame:
    `SELECT keys and aggregates FROM <any name> [WHERE ...] [GROUP BY ...]`. Every split of
    the table's files (pruned by the WHERE as read_table prunes) runs the filter, the
    projection and partial aggregates in shoal; Dask reduces the partial rows: count, sum,
    min, max, avg, and count(DISTINCT e) in two phases. Without aggregates the rows of every
    split are the result. Joins, window functions, subqueries, HAVING, ORDER BY and LIMIT raise
    NotSupportedException (sort, limit and merge the result with Dask)."""
    import dask.dataframe as dd

    q = _dask_sql.Query(query)
    warehouse, table, plan = _plan_for_where(uri, q.where, version)
    version = plan["version"]
    groups = _balanced_groups(plan["files"], split_bytes) if plan["files"] else [[]]
    paths = [tuple(f["path"] for f in g) for g in groups]
    group_sql = " GROUP BY " + ", ".join(q.group_by) if q.group_by else ""
    full = ("SELECT %s FROM " % ", ".join(q.items), (" AS " + q.alias if q.alias else "") + q.where_sql() + group_sql)
    out_meta = _split_meta(warehouse, table, version, full)

    def over_splits(select, label):
        meta = _split_meta(warehouse, table, version, select)
        token = "%s-%d-%r-%r-%d" % (table, version, select, label, split_bytes)
        return dd.from_map(_conformed_split, paths, args=(warehouse, table, version, select, meta), meta=meta,
                           enforce_metadata=False, label="shoal-sql-" + label, token=token)

    if not q.aggregate:
        return over_splits(full, "rows")
    keys = ["%s AS __g%d" % (g, i) for i, g in enumerate(q.group_by)] or ["0 AS __k"]
    key_cols = ["__g%d" % i for i in range(len(q.group_by))] or ["__k"]
    partial, spec, distinct = list(keys), {}, []
    for j, kind in enumerate(q.kinds):
        if kind[0] != "agg":
            continue
        fn, arg, is_distinct = kind[1], kind[2], kind[3]
        if is_distinct:
            distinct.append((j, arg))
        elif fn == "count":
            partial.append("count(%s) AS __a%d" % (arg, j))
            spec["__a%d" % j] = "sum"
        elif fn in ("sum", "avg"):
            partial.append("sum(%s) AS __a%d, count(%s) AS __n%d" % (arg, j, arg, j))
            spec["__a%d" % j] = spec["__n%d" % j] = "sum"
        else:
            partial.append("%s(%s) AS __a%d" % (fn, arg, j))
            spec["__a%d" % j] = fn
    tail = (" AS " + q.alias if q.alias else "") + q.where_sql() + group_sql
    parts = over_splits(("SELECT %s FROM " % ", ".join(partial), tail), "partial")
    if spec:
        reduced = parts.groupby(key_cols, dropna=False).agg(spec, split_out=1).reset_index()
    else:
        reduced = parts[key_cols].drop_duplicates(split_out=1)
    for j, arg in distinct:
        grouping = ", ".join(q.group_by + [arg])
        pairs = over_splits(("SELECT %s, %s AS __d FROM " % (", ".join(keys), arg),
                             (" AS " + q.alias if q.alias else "") + q.where_sql() + " GROUP BY " + grouping),
                            "distinct%d" % j)
        counted = pairs.drop_duplicates(split_out=1).groupby(key_cols, dropna=False)["__d"].count()
        counted = counted.to_frame(name="__a%d" % j).reset_index()
        reduced = reduced.merge(counted, on=key_cols, how="left")
    key_of = {_dask_sql.norm(g): i for i, g in enumerate(q.group_by)}
    kinds = [("key", key_of[_dask_sql.norm(k[1])]) if k[0] == "key" else k for k in q.kinds]
    return reduced.map_partitions(_finish_aggregate, kinds, out_meta, meta=out_meta,
                                  token="shoal-sql-final-%s-%d-%r" % (table, version, query))


def _finish_aggregate(df, kinds, meta):
    """The query's columns from the reduced partial aggregates."""
    import pandas as pd

    out = {}
    for j, (name, kind) in enumerate(zip(meta.columns, kinds)):
        if kind[0] == "key":
            col = df["__g%d" % kind[1]]
        elif kind[1] == "count":
            col = df["__a%d" % j].fillna(0)
        elif kind[1] == "sum":
            col = df["__a%d" % j].where(df["__n%d" % j] > 0, None)
        elif kind[1] == "avg":
            n = df["__n%d" % j]
            col = (df["__a%d" % j] / n.where(n > 0, None)).where(n > 0, None)
        else:
            col = df["__a%d" % j]
        out[name] = col.reset_index(drop=True)
    return _conform(pd.DataFrame(out, columns=list(meta.columns)), meta)
