"""shoal.dask on a Dask LocalCluster of 2 worker processes x 1 thread (doc/dask.md): reads and
sql() equal shoal's own SQL on the same table (deletion vectors, an older version), writes
commit exactly once (resubmitted, a worker SIGKILLed mid-job), bad input is a named error on
the client with nothing committed."""

import importlib
import os
import signal
import sys

import pytest

if os.environ.get("CI", "").lower() == "true":  # CI installs them (scripts/install-deps.sh): no skipping
    for _name in ("pandas", "dask.dataframe", "distributed"):
        importlib.import_module(_name)
pd = pytest.importorskip("pandas")
distributed = pytest.importorskip("distributed")
dd = pytest.importorskip("dask.dataframe")

import cloudpickle  # noqa: E402  (comes with distributed)

import shoal  # noqa: E402
import shoal.dask  # noqa: E402

# Functions of this module run in the workers, which cannot import it: ship them by value.
cloudpickle.register_pickle_by_value(sys.modules[__name__])


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


@pytest.fixture
def wh(tmp_path):
    c = shoal.connect(str(tmp_path / "wh"), threads=2)
    yield c
    c.close()


def table_path(con, name):
    root = con.sql("DESCRIBE DETAIL %s" % name).df()["location"][0]
    return root[len("file:"):] if root.startswith("file:") else root


def sorted_frame(df, by=None):
    df = df.reset_index(drop=True)
    by = by or list(df.columns)
    return df.sort_values(by, na_position="first").reset_index(drop=True)


def assert_same(got, want):
    """Same rows as a multiset, same column names; values compared as Python objects."""
    got, want = sorted_frame(got), sorted_frame(want)
    assert list(got.columns) == list(want.columns)
    assert len(got) == len(want)
    for c in got.columns:
        g = [None if pd.isna(v) else v for v in got[c].astype(object)]
        w = [None if pd.isna(v) else v for v in want[c].astype(object)]
        assert g == w, c


def make_events(con, dv=False, partitioned=False):
    props = " TBLPROPERTIES ('delta.enableDeletionVectors' = '%s')" % ("true" if dv else "false")
    parts = " PARTITIONED BY (p)" if partitioned else ""
    con.sql("CREATE TABLE events (id BIGINT, p INT, v DOUBLE, s STRING)%s%s" % (parts, props))
    for k in range(6):  # six commits, six files (or more when partitioned)
        con.sql("INSERT INTO events SELECT id, id %% 3 AS p, CASE WHEN id %% 7 = 0 THEN NULL ELSE id * 0.5 END,"
                " 's' || CAST(id %% 11 AS STRING) FROM range(%d, %d) AS r(id)" % (k * 1000, (k + 1) * 1000))
    return table_path(con, "events")


def test_read_table_equals_shoal_sql_with_filter_and_columns(client, wh):
    uri = make_events(wh)
    ddf = shoal.dask.read_table(uri, columns=["id", "v"], filter="id >= 2500 AND id < 4200", split_bytes=1)
    assert ddf.npartitions == 3  # the log statistics pruned the three other files
    assert list(ddf._meta.columns) == ["id", "v"] and str(ddf._meta.dtypes["id"]) == "Int64"
    want = wh.sql("SELECT id, v FROM events WHERE id >= 2500 AND id < 4200").df()
    assert_same(ddf.compute(), want)


def test_read_table_deletion_vectors_and_older_version(client, wh):
    uri = make_events(wh, dv=True)
    wh.sql("DELETE FROM events WHERE id % 5 = 0")
    ddf = shoal.dask.read_table(uri, split_bytes=1)
    assert ddf.npartitions == 6
    assert_same(ddf.compute(), wh.sql("SELECT * FROM events").df())
    old = shoal.dask.read_table(uri, filter="s = 's3'", version=3, split_bytes=1)
    want = wh.sql("SELECT * FROM events VERSION AS OF 3 WHERE s = 's3'").df()
    assert len(want) > 0
    assert_same(old.compute(), want)


def test_read_table_partitioned_index_has_divisions(client, wh):
    uri = make_events(wh, partitioned=True)
    ddf = shoal.dask.read_table(uri, index="p", split_bytes=1)
    assert ddf.known_divisions and ddf.divisions == (0, 1, 2, 2)
    got = ddf.loc[1].compute()  # reads only the partition holding p = 1
    want = wh.sql("SELECT id, v, s, p FROM events WHERE p = 1").df()
    assert_same(got.reset_index()[["id", "v", "s", "p"]], want)


def test_sql_aggregates_equal_shoal_sql(client, wh):
    uri = make_events(wh, dv=True)
    wh.sql("DELETE FROM events WHERE id % 13 = 0")
    queries = [
        "SELECT p, count(*) AS n, sum(id), min(v), max(s), avg(v) AS a, count(v) FROM events WHERE id < 5000 GROUP BY p",
        "SELECT count(*), sum(v), count(DISTINCT s) AS ds FROM events WHERE v > 10",
        "SELECT s, count(DISTINCT p), max(id) FROM events GROUP BY s",
        "SELECT id, s FROM events WHERE id BETWEEN 10 AND 20",
        "SELECT count(*), sum(id), avg(v) FROM events WHERE id < 0",
    ]
    for q in queries:
        got = shoal.dask.sql(uri, q, split_bytes=1).compute()
        want = wh.sql(q).df()
        assert list(got.columns) == list(want.columns), q
        assert_same(got, want)


def test_sql_unsupported_shapes_are_named_errors(wh):
    uri = make_events(wh)
    with pytest.raises(shoal.NotSupportedException, match="JOIN"):
        shoal.dask.sql(uri, "SELECT * FROM events a JOIN events b ON a.id = b.id")
    with pytest.raises(shoal.NotSupportedException, match="window"):
        shoal.dask.sql(uri, "SELECT id, row_number() OVER (ORDER BY id) FROM events")
    with pytest.raises(shoal.BinderException):
        shoal.dask.sql(uri, "SELECT nope, count(*) FROM events GROUP BY nope")


def frame(n, start=0):
    ids = list(range(start, start + n))
    return pd.DataFrame({"id": ids, "p": [i % 2 for i in ids], "s": ["r%d" % i for i in ids]})


def file_count(root):
    return sum(len([f for f in fs if f.endswith(".parquet")]) for _, _, fs in os.walk(root))


def test_write_table_commits_once_even_when_resubmitted(client, wh, tmp_path):
    wh.sql("CREATE TABLE sink (id BIGINT, p BIGINT, s STRING)")
    uri = table_path(wh, "sink")
    ddf = dd.from_pandas(frame(4000), npartitions=4)
    r = shoal.dask.write_table(ddf, uri, job_id="job-1")
    assert (r.version, r.rows, r.files, r.already_committed) == (1, 4000, 4, False)
    again = shoal.dask.write_table(ddf, uri, job_id="job-1")  # resubmitted: a no-op
    assert again.already_committed and again.version == 1
    assert wh.sql("SELECT count(*), count(DISTINCT id) FROM sink").fetchall() == [(4000, 4000)]
    assert file_count(uri) == 4  # the replay's staged files were deleted
    history = wh.sql("DESCRIBE HISTORY sink").df()
    assert len(history) == 2


def test_write_table_creates_partitioned_table_and_overwrites(client, wh, tmp_path):
    uri = str(tmp_path / "made")
    shoal.dask.write_table(dd.from_pandas(frame(100), npartitions=2), uri, mode="error", partition_by="p")
    assert wh.sql("SELECT count(*) FROM delta.`%s` WHERE p = 1" % uri).fetchall() == [(50,)]
    with pytest.raises(shoal.CatalogException, match="already exists"):
        shoal.dask.write_table(dd.from_pandas(frame(10), npartitions=1), uri, mode="error")
    r = shoal.dask.write_table(dd.from_pandas(frame(10, 500), npartitions=2), uri, mode="overwrite")
    assert wh.sql("SELECT min(id), count(*) FROM delta.`%s`" % uri).fetchall() == [(500, 10)]
    assert r.version == 2


def install_kill_hook(marker):
    import shoal.dask

    def kill_once(staged):
        if not os.path.exists(marker):
            open(marker, "w").close()
            os.kill(os.getpid(), signal.SIGKILL)  # files written, add actions never reported

    shoal.dask._after_stage_hook = kill_once


def test_worker_killed_mid_write_retries_to_exactly_once(client, wh, tmp_path):
    wh.sql("CREATE TABLE killed (id BIGINT, p BIGINT, s STRING)")
    uri = table_path(wh, "killed")
    marker = str(tmp_path / "killed-once")
    client.run(install_kill_hook, marker)
    try:
        r = shoal.dask.write_table(dd.from_pandas(frame(3000), npartitions=3), uri, job_id="killed-job")
    finally:
        client.run(lambda: setattr(sys.modules["shoal.dask"], "_after_stage_hook", None))
    assert os.path.exists(marker)
    assert r.version == 1 and r.rows == 3000
    assert wh.sql("SELECT count(*), count(DISTINCT id) FROM killed").fetchall() == [(3000, 3000)]
    # The killed attempt's file is an orphan outside the log (VACUUM reclaims it). So is the file
    # of a task that had finished on the killed worker when it died: its result lived in that
    # worker's memory, so Dask runs it again (seen 1 run in 6 on main).
    assert int(wh.sql("DESCRIBE DETAIL killed").df()["numFiles"][0]) == 3
    assert file_count(uri) - 3 in (1, 2)
    assert len(wh.sql("DESCRIBE HISTORY killed").df()) == 2


def failing_partition(pdf):
    if pdf["id"].min() >= 2000:
        raise ValueError("bad partition")
    return pdf


def test_failed_job_commits_nothing_and_deletes_its_files(client, wh):
    wh.sql("CREATE TABLE failed (id BIGINT, p BIGINT, s STRING)")
    uri = table_path(wh, "failed")
    ddf = dd.from_pandas(frame(3000), npartitions=3).map_partitions(failing_partition)
    with pytest.raises(ValueError, match="bad partition"):
        shoal.dask.write_table(ddf, uri)
    assert wh.sql("SELECT count(*) FROM failed").fetchall() == [(0,)]
    assert file_count(uri) == 0
    assert len(wh.sql("DESCRIBE HISTORY failed").df()) == 1


def test_bad_input_is_a_named_error_on_the_client(client, wh, tmp_path):
    uri = make_events(wh)
    with pytest.raises(shoal.BinderException, match="nope"):
        shoal.dask.read_table(uri, filter="nope > 1")
    with pytest.raises(shoal.BinderException, match="nope"):
        shoal.dask.read_table(uri, columns=["id", "nope"])
    with pytest.raises(shoal.CatalogException):
        shoal.dask.read_table(str(tmp_path / "no" / "such" / "table"))
    before = wh.sql("DESCRIBE HISTORY events").df()
    wrong = pd.DataFrame({"id": [1], "p": ["x"], "v": [1.0], "s": ["a"]})
    with pytest.raises(shoal.InvalidInputException, match="'p'"):
        shoal.dask.write_table(dd.from_pandas(wrong, npartitions=1), uri)
    with pytest.raises(shoal.InvalidInputException, match="missing"):
        shoal.dask.write_table(dd.from_pandas(wrong[["id", "v"]], npartitions=1), uri)
    blocked = tmp_path / "a-file"
    blocked.write_text("not a directory")
    with pytest.raises(shoal.IOException):
        shoal.dask.write_table(dd.from_pandas(frame(3), npartitions=1), str(blocked / "t"))
    assert len(wh.sql("DESCRIBE HISTORY events").df()) == len(before)
    assert wh.sql("SELECT count(*) FROM events").fetchall() == [(6000,)]


def test_an_engine_error_in_a_worker_reaches_the_client_as_its_class(client, wh):
    wh.sql("CREATE TABLE strict (id BIGINT NOT NULL, p BIGINT, s STRING)")
    uri = table_path(wh, "strict")
    rows = frame(300)
    rows["id"] = rows["id"].astype("Int64")
    rows.loc[250, "id"] = None  # in the last of three partitions
    with pytest.raises(shoal.ConstraintException, match="id"):
        shoal.dask.write_table(dd.from_pandas(rows, npartitions=3), uri)
    assert wh.sql("SELECT count(*) FROM strict").fetchall() == [(0,)]
    assert file_count(uri) == 0


# ---------------------------------------------------------------- distributed DML


def make_dml_pair(con):
    """Tables `events` (changed on the cluster) and `twin` (changed locally by the same
    statements) with deletion vectors, the change data feed, 3 partitions x 4 commits and
    existing deletion vectors; returns events' path."""
    for name in ("events", "twin"):
        con.sql("CREATE TABLE %s (id BIGINT, p INT, v DOUBLE, s STRING) PARTITIONED BY (p) TBLPROPERTIES "
                "('delta.enableDeletionVectors' = 'true', 'delta.enableChangeDataFeed' = 'true')" % name)
        for k in range(4):
            con.sql("INSERT INTO %s SELECT id, CAST(id %% 3 AS INT), id * 0.5, 's' || CAST(id %% 11 AS STRING) "
                    "FROM range(%d, %d) AS r(id)" % (name, k * 1000, (k + 1) * 1000))
        con.sql("DELETE FROM %s WHERE id %% 13 = 0" % name)
    return table_path(con, "events")


def rows(con, name):
    return con.sql("SELECT * FROM %s" % name).df()


def version(con, name):
    return int(con.sql("DESCRIBE HISTORY %s" % name).df()["version"].max())


def parquet_files(uri):
    return sum(1 for _, _, fs in os.walk(uri) for f in fs if f.endswith(".parquet"))


def test_execute_update_and_delete_equal_the_local_statements(client, wh):
    uri = make_dml_pair(wh)
    for text in ("UPDATE {t} SET v = v * 2, s = upper(s) WHERE id %% 5 = 1 AND id < 3500",
                 "DELETE FROM {t} WHERE s = 's3' OR id > 3900"):
        before = version(wh, "events")
        r = shoal.dask.execute(uri, text.replace("{t}", "delta.`%s`" % uri).replace("%%", "%"), client=client,
                               split_bytes=1)
        local = wh.sql(text.replace("{t}", "twin").replace("%%", "%")).df()
        assert r.tasks >= 2
        assert r.num_affected_rows == local["num_affected_rows"][0] > 0
        assert r.version == before + 1 == version(wh, "events")
        assert_same(rows(wh, "events"), rows(wh, "twin"))
    cdf = "SELECT id, p, v, s, _change_type FROM table_changes('%s', 5)"
    assert_same(wh.sql(cdf % "events").df(), wh.sql(cdf % "twin").df())


def test_execute_resubmitted_job_commits_once(client, wh):
    uri = make_dml_pair(wh)
    sql = "UPDATE delta.`%s` SET v = v + 1 WHERE id < 1500" % uri
    first = shoal.dask.execute(uri, sql, client=client, job_id="bump-1", split_bytes=1)
    assert not first.already_committed
    after, files = rows(wh, "events"), parquet_files(uri)
    again = shoal.dask.execute(uri, sql, client=client, job_id="bump-1", split_bytes=1)
    assert again.already_committed and again.version == first.version == version(wh, "events")
    assert_same(rows(wh, "events"), after)
    assert parquet_files(uri) == files  # the replay's staged files are gone


def test_concurrent_jobs_on_disjoint_rows_of_the_same_files_both_commit(client, wh):
    uri = make_dml_pair(wh)
    path = "delta.`%s`" % uri
    a = "UPDATE {t} SET s = 'a' WHERE id % 4 = 0"
    b = "UPDATE {t} SET s = 'b' WHERE id % 4 = 2"
    base = version(wh, "events")
    try:
        # b has staged its changes at `base` when a commits: b's commit rebases row by row.
        shoal.dask._before_commit_hook = lambda _: (
            setattr(shoal.dask, "_before_commit_hook", None),
            shoal.dask.execute(uri, a.replace("{t}", path), client=client, split_bytes=1))
        rb = shoal.dask.execute(uri, b.replace("{t}", path), client=client, split_bytes=1)
    finally:
        shoal.dask._before_commit_hook = None
    assert rb.version == base + 2  # a committed base + 1 in between
    wh.sql(a.replace("{t}", "twin"))
    wh.sql(b.replace("{t}", "twin"))
    assert_same(rows(wh, "events"), rows(wh, "twin"))


def test_concurrent_jobs_on_overlapping_rows_give_the_named_conflict(client, wh):
    uri = make_dml_pair(wh)
    path = "delta.`%s`" % uri
    seen = {}

    def commit_a_first(changes):
        shoal.dask._before_commit_hook = None
        shoal.dask.execute(uri, "UPDATE %s SET s = 'a' WHERE id < 2000" % path, client=client, split_bytes=1)
        seen["version"], seen["files"] = version(wh, "events"), parquet_files(uri)

    try:
        shoal.dask._before_commit_hook = commit_a_first
        with pytest.raises(shoal.ConcurrentDeleteDeleteException):
            shoal.dask.execute(uri, "DELETE FROM %s WHERE id %% 2 = 0 AND id < 1000" % path, client=client,
                               split_bytes=1)
    finally:
        shoal.dask._before_commit_hook = None
    assert version(wh, "events") == seen["version"]
    assert parquet_files(uri) < seen["files"]  # the loser's change data files were deleted


def test_execute_bad_statements_are_named_errors_on_the_client(client, wh):
    uri = make_dml_pair(wh)
    before, files = version(wh, "events"), parquet_files(uri)
    path = "delta.`%s`" % uri
    with pytest.raises(shoal.BinderException, match="nope"):
        shoal.dask.execute(uri, "UPDATE %s SET s = 'x' WHERE nope = 1" % path, client=client)
    with pytest.raises(shoal.InvalidInputException):
        shoal.dask.execute(uri, "SELECT * FROM %s" % path, client=client)
    with pytest.raises(shoal.InvalidInputException, match="twin"):
        shoal.dask.execute(uri, "DELETE FROM twin WHERE id = 1", client=client)
    with pytest.raises(shoal.InvalidInputException, match="merge"):
        shoal.dask.execute(uri, "/* x */ -- y\n MERGE INTO events t USING twin s ON t.id = s.id "
                           "WHEN NOT MATCHED THEN INSERT *", client=client)
    assert version(wh, "events") == before and parquet_files(uri) == files


MERGE = ("MERGE INTO {t} AS t USING updates AS u ON t.id = u.id "
         "WHEN MATCHED AND u.op = 'delete' THEN DELETE "
         "WHEN MATCHED THEN UPDATE SET v = u.v, s = u.op "
         "WHEN NOT MATCHED AND u.op <> 'delete' THEN INSERT (id, p, v, s) VALUES (u.id, CAST(u.id % 3 AS INT), u.v, 'new') "
         "WHEN NOT MATCHED BY SOURCE AND t.id % 97 = 5 THEN UPDATE SET s = 'orphan'")


def updates_frame():
    ids = list(range(2990, 3010)) + list(range(3990, 4010)) + [13, 26, 500, 1501, 2502]  # some deleted rows
    ops = ["delete" if i % 4 == 0 else "update" for i in ids]
    return pd.DataFrame({"id": ids, "v": [i * 10.0 for i in ids], "op": ops})


def test_merge_with_a_dask_source_equals_the_local_merge(client, wh):
    uri = make_dml_pair(wh)
    source = dd.from_pandas(updates_frame(), npartitions=3)
    before = version(wh, "events")
    r = shoal.dask.merge(uri, source, MERGE.replace("{t}", "events"), client=client, split_bytes=1)
    wh.register("updates", updates_frame())
    local = wh.sql(MERGE.replace("{t}", "twin")).df()
    assert r.tasks >= 2 and r.version == before + 1 == version(wh, "events")
    for m in ("num_affected_rows", "num_updated_rows", "num_deleted_rows", "num_inserted_rows"):
        assert r[m] == local[m][0], m
    assert r.num_inserted_rows > 0 and r.num_deleted_rows > 0
    assert_same(rows(wh, "events"), rows(wh, "twin"))


def test_merge_target_row_matched_twice_is_the_local_error(client, wh):
    uri = make_dml_pair(wh)
    dup = pd.DataFrame({"id": [100, 2500, 2500], "v": [1.0, 2.0, 3.0], "op": ["update"] * 3})
    wh.register("updates", dup)
    with pytest.raises(shoal.Error) as local:
        wh.sql(MERGE.replace("{t}", "twin"))
    before, files = version(wh, "events"), parquet_files(uri)
    with pytest.raises(type(local.value)):
        shoal.dask.merge(uri, dd.from_pandas(dup, npartitions=2), MERGE.replace("{t}", "events"), client=client,
                         split_bytes=1)
    assert version(wh, "events") == before and parquet_files(uri) == files


def test_merge_bad_input_is_a_named_error_on_the_client(client, wh):
    uri = make_dml_pair(wh)
    source = updates_frame()
    with pytest.raises(shoal.BinderException, match="nope"):
        shoal.dask.merge(uri, source, "MERGE INTO events t USING updates u ON t.id = u.nope "
                         "WHEN MATCHED THEN DELETE", client=client)
    with pytest.raises(shoal.InvalidInputException):
        shoal.dask.merge(uri, source, "MERGE INTO events t USING (SELECT 1 AS id) u ON t.id = u.id "
                         "WHEN MATCHED THEN DELETE", client=client)
    with pytest.raises(shoal.InvalidInputException):
        shoal.dask.merge(uri, source, "UPDATE events SET s = 'x'", client=client)


def test_keyboard_interrupt_stops_the_statements_inside_the_workers(client, wh):
    import threading
    import time

    wh.sql("CREATE TABLE big (id BIGINT, s STRING) TBLPROPERTIES ('delta.enableDeletionVectors' = 'true')")
    for k in range(2):  # 2 files of 2M rows: the DELETE below takes about 6 s per file at 1 thread
        # (it matches no row: the scan hears the interrupt while its filter empties every batch)
        wh.sql("INSERT INTO big SELECT id, 's' || CAST(id AS STRING) FROM range(%d, %d) AS r(id)"
               % (k * 2000000, (k + 1) * 2000000))
    uri = table_path(wh, "big")
    before, files = version(wh, "big"), parquet_files(uri)
    timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            shoal.dask.execute(uri, "DELETE FROM big WHERE sha2(repeat(s, 40), 256) = 'x'", client=client,
                               split_bytes=1)
    finally:
        timer.cancel()
    # Both worker threads are free at once: the statements in them were interrupted.
    start = time.monotonic()
    workers = list(client.scheduler_info()["workers"])
    client.gather([client.submit(time.monotonic, workers=[w], pure=False) for w in workers])
    assert time.monotonic() - start < 1.5
    assert version(wh, "big") == before and parquet_files(uri) == files
