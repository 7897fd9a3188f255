"""Threads: concurrent writers through one connection each, conflicts as their named
exception classes, the GIL released while a statement runs, interrupts."""

import _thread
import threading
import time

import pytest

import shoal

THREADS = 4
INSERTS = 25


def test_concurrent_writers_from_threads_lose_no_row(con):
    con.sql("CREATE TABLE t (thread INT, n INT)")
    errors = []

    def writer(k):
        try:
            with con.cursor() as c:
                for n in range(INSERTS):
                    c.execute("INSERT INTO t VALUES (?, ?)", [k, n])
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert con.sql("SELECT count(*), count(DISTINCT thread * 1000 + n) FROM t").fetchall() == [
        (THREADS * INSERTS, THREADS * INSERTS)]


def test_a_conflict_raises_its_named_exception(con):
    con.sql("CREATE TABLE t (id INT, v INT)")
    con.sql("INSERT INTO t VALUES (1, 0), (2, 0)")
    other = con.cursor()
    con.begin()
    con.sql("DELETE FROM t WHERE id = 1")
    other.sql("DELETE FROM t WHERE id = 1")  # commits first
    with pytest.raises(shoal.ConflictException) as info:
        con.commit()
    assert type(info.value) is shoal.ConcurrentDeleteDeleteException
    assert isinstance(info.value, shoal.Error)
    other.close()


def test_the_gil_is_released_while_a_statement_runs(con):
    ticks = []
    stop = threading.Event()

    def ticker():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.001)

    t = threading.Thread(target=ticker)
    t.start()
    try:
        start = time.perf_counter()
        con.sql("SELECT sum(i * 2 % 7) FROM range(60000000) r(i)").fetchall()
        elapsed = time.perf_counter() - start
    finally:
        stop.set()
        t.join()
    # The ticker ran throughout the statement (with the GIL held it would not tick at all).
    assert len(ticks) > 10 and elapsed > 0.05


def test_ctrl_c_interrupts_a_running_statement(con):
    timer = threading.Timer(0.3, _thread.interrupt_main)  # SIGINT as the main thread sees it
    timer.start()
    start = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        con.sql("SELECT count(*) FROM range(100000000000) r(i) WHERE i % 7 = 3").fetchall()
    assert time.perf_counter() - start < 10
    timer.join()
    assert con.sql("SELECT 1").fetchall() == [(1,)]  # the connection is usable afterwards


def test_interrupt_from_another_thread_raises_interrupt_exception(con):
    timer = threading.Timer(0.3, con.interrupt)
    timer.start()
    with pytest.raises(shoal.InterruptException):
        con.sql("SELECT count(*) FROM range(100000000000) r(i) WHERE i % 7 = 3")
    timer.join()
