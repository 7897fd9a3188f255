"""A warehouse on S3 from Python: the local S3 server of scripts/s3-server.sh (SHOAL_S3_ENV=DIR/env,
or SHOAL_S3_ENDPOINT/_ACCESS_KEY/_SECRET_KEY/_BUCKET). Without one the tests skip, except under
CI=true, where they fail (doc/object_storage.md)."""

import os
import uuid

import pytest

import shoal


def _server():
    s = {k: os.environ.get("SHOAL_S3_" + k.upper(), "") for k in ("endpoint", "access_key", "secret_key", "bucket")}
    env_file = os.environ.get("SHOAL_S3_ENV", "")
    if not s["endpoint"] and env_file and os.path.exists(env_file):
        with open(env_file) as f:
            for word in f.read().split():
                k, _, v = word.partition("=")
                if k in s:
                    s[k] = v
    return s if s["endpoint"] and s["bucket"] else None


@pytest.fixture
def s3_warehouse(monkeypatch):
    s = _server()
    if s is None:
        reason = "no S3 test server: scripts/s3-server.sh start DIR, then SHOAL_S3_ENV=DIR/env"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(reason + " (required under CI=true)")
        pytest.skip(reason)
    # The engine reads the AWS_* environment when the process first uses an s3:// path.
    monkeypatch.setenv("AWS_ENDPOINT_URL", s["endpoint"])
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", s["access_key"])
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", s["secret_key"])
    return "s3://%s/shoal-test/python-%s/wh" % (s["bucket"], uuid.uuid4().hex)


def test_tables_on_s3_round_trip(s3_warehouse):
    con = shoal.connect(s3_warehouse, threads=2)
    con.sql("CREATE TABLE t AS SELECT i, i * 2 AS j FROM range(100) r(i)")
    con.sql("DELETE FROM t WHERE i >= 50")
    assert con.sql("SELECT count(*), sum(j) FROM t").fetchall() == [(50, 2450)]
    other = shoal.connect(s3_warehouse, threads=1)
    assert other.sql("SELECT max(i) FROM t").fetchall() == [(49,)]
    con.sql("DROP TABLE t")
    other.close()
    con.close()


def test_missing_bucket_is_a_named_error(s3_warehouse):
    with pytest.raises(shoal.IOException, match="NoSuchBucket"):
        shoal.connect("s3://shoal-no-such-bucket/wh")
