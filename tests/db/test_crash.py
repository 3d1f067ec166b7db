"""Builds killed for real (SIGKILL, SIGINT) and resumed, and readers during
a build (wsdb/db/build.py, wsdb/db/store.py; README, "Guarantees").

Each build runs in its own process. To kill it at an exact point (in the
search, inside a level's write transaction, between two levels) the process
is started through a small driver that wraps one function to SIGKILL the
process there; the wsdb code that runs is the real one. The resumed build
is compared row by row with a clean build, and verified.
"""

import signal
import sqlite3
import subprocess
import sys
import time

import pytest

import wsdb

#: real processes, killed
pytestmark = pytest.mark.integration

DRIVER = r"""
import os, signal, sys
from wsdb.cli import main
from wsdb.db import build, store

point, depth = sys.argv[1], int(sys.argv[2])

def die():
    os.kill(os.getpid(), signal.SIGKILL)

if point == "search":          # while level `depth` is being computed
    real_next = build.next_level
    def next_level(eng, level, seen):
        if level.depth + 1 == depth:
            die()
        return real_next(eng, level, seen)
    build.next_level = next_level
elif point == "write":         # inside the transaction that writes level `depth`
    real_insert = store._insert_classes
    def insert(conn, key, d, columns, per=256):
        if d != depth:
            return real_insert(conn, key, d, columns, per)
        def first_chunk_then_die():
            it = iter(columns)
            yield next(it)
            die()
        return real_insert(conn, key, d, first_chunk_then_die(), per)
    store._insert_classes = insert
elif point == "between":       # right after level `depth` is committed
    real_add = store.Store.add_level
    def add_level(self, key, level_row, columns, totals, lease=None):
        real_add(self, key, level_row, columns, totals, lease)
        if level_row["depth"] == depth:
            die()
    store.Store.add_level = add_level
sys.argv = ["wsdb", "build", *sys.argv[3:]]
main()
"""

ROWS = "select rep, depth, parent, orbit_size from class_rows where n={n} and c={c} order by rep"
LEVELS = "select depth, classes, states from levels where n={n} and c={c} order by depth"


def wsdb_cmd(*args, **kw):
    return subprocess.run(
        [sys.executable, "-m", "wsdb", *map(str, args)], capture_output=True, text=True, timeout=300, **kw
    )


def rows(db, q, n, c):
    with sqlite3.connect(db) as conn:
        return conn.execute(q.format(n=n, c=c)).fetchall()


@pytest.fixture(scope="module")
def clean43(tmp_path_factory):
    path = tmp_path_factory.mktemp("clean") / "clean.sqlite"
    wsdb.build(4, 3, db=path)
    return path


def _slow(point, depth):  # a kill while writing runs by default; the rest with -m slow
    return pytest.param(point, depth, marks=pytest.mark.slow, id=f"{point}-{depth}")


@pytest.mark.parametrize(
    "point, depth",
    [_slow("search", 6), _slow("search", 1), ("write", 7), _slow("write", 0), _slow("between", 8), _slow("between", 3)],
)
def test_sigkill_anywhere_then_resume_gives_the_clean_rows(tmp_path, clean43, point, depth):
    db = tmp_path / "k.sqlite"
    killed = subprocess.run(
        [sys.executable, "-c", DRIVER, point, str(depth), "--n", "4", "--c", "3", "--db", str(db), "-q"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    if point == "write" and depth == 0:  # killed before anything was committed
        assert not rows(db, "select * from builds where n={n} and c={c}", 4, 3)
    else:
        stored = rows(db, LEVELS, 4, 3)
        last = len(stored) - 1
        # every finished level and nothing more; while level d is searched,
        # level d-1 may still be in its write, which the kill then undoes
        allowed = {"search": {depth - 2, depth - 1}, "write": {depth - 1}, "between": {depth}}[point]
        assert last in allowed and [d for d, _, _ in stored] == list(range(last + 1))
        assert stored == rows(clean43, LEVELS, 4, 3)[: last + 1]
        assert len(rows(db, ROWS, 4, 3)) == sum(k for _, k, _ in stored)
        for command in (
            ["lookup", "1212/1212/3333/3333"],
            ["verify", "--n", "4", "--c", "3"],
            ["stats", "--n", "4", "--c", "3"],
        ):
            said = wsdb_cmd(*command, "--db", db)
            assert said.returncode == 2 and "Traceback" not in said.stderr
            # the hint names the database the user named, so it can be copied as it stands
            assert f"interrupted at depth {last}: run `wsdb build --n 4 --c 3 --db {db}` to resume" in said.stderr
    resumed = wsdb_cmd("build", "--n", 4, "--c", 3, "--db", db, "-q")
    assert resumed.returncode == 0, resumed.stderr
    assert rows(db, ROWS, 4, 3) == rows(clean43, ROWS, 4, 3)
    assert rows(db, LEVELS, 4, 3) == rows(clean43, LEVELS, 4, 3)
    verify = wsdb_cmd("verify", "--n", 4, "--c", 3, "--db", db)
    assert verify.returncode == 0, verify.stdout + verify.stderr


@pytest.mark.slow  # a 6x6 build three times over, with readers: 45 s
def test_readers_during_a_build_then_sigint_then_sigkill(tmp_path, db4, thesis):
    """A 6x6 build in one process; lookups in others all along: the 4x4
    builds in the same file keep answering right, the 6x6 one is reported
    as being built, never as locked or with a wrong depth. Ctrl-C stops it
    with one line; a later SIGKILL too loses nothing finished."""
    db = tmp_path / "shared.sqlite"
    db.write_bytes(db4.read_bytes())
    states4 = wsdb.random_states(wsdb.wrapslide(4, 4), 5, seed=9)
    texts4 = [wsdb.format_state(s) for s in states4]
    want4 = [wsdb.lookup(t, db=db4).distance for t in texts4]
    state6 = wsdb.format_state(wsdb.random_states(wsdb.wrapslide(6, 2), 1, seed=1)[0])

    def look(texts):
        return wsdb_cmd("lookup", "-", "--db", db, "--json", input="\n".join(texts) + "\n")

    def readers_until(proc, stop):
        seen = 0
        while proc.poll() is None and not stop():
            r = look(texts4)
            assert r.returncode == 0, r.stderr
            assert [int(line.split('"distance": ')[1].split(",")[0]) for line in r.stdout.splitlines()] == want4
            r6 = look([state6])
            assert "locked" not in r6.stderr and "Traceback" not in r6.stderr
            if r6.returncode == 2:  # before a build's first commit, it is not there yet (or still
                # the interrupted one it resumes)
                assert any(
                    said in r6.stderr
                    for said in (
                        "6x6 2-colour build is still running",
                        "has no 6x6 2-colour database",
                        "6x6 2-colour build was interrupted",
                    )
                ), r6.stderr
            seen += 1
        return seen

    def levels():
        try:
            return len(rows(db, LEVELS, 6, 2))
        except sqlite3.OperationalError:
            return 0

    build = subprocess.Popen(
        [sys.executable, "-m", "wsdb", "build", "--n", "6", "--c", "2", "--db", str(db)],
        stderr=subprocess.PIPE,
        text=True,
    )
    assert readers_until(build, lambda: levels() >= 8) >= 1
    build.send_signal(signal.SIGINT)
    err = build.communicate(timeout=120)[1]
    assert build.returncode == 130
    assert err.strip().splitlines()[-1] == (
        f"wsdb: build interrupted; every finished level is stored: run `wsdb build --n 6 --c 2 --db {db}` to resume"
    )
    assert "Traceback" not in err
    done = levels()
    assert done >= 8
    r6 = look([state6])
    assert r6.returncode == 2 and f"interrupted at depth {done - 1}" in r6.stderr

    build = subprocess.Popen(
        [sys.executable, "-m", "wsdb", "build", "--n", "6", "--c", "2", "--db", str(db), "-q"],
        stderr=subprocess.PIPE,
        text=True,
    )
    readers_until(build, lambda: levels() >= done + 2)
    build.kill()
    build.wait(timeout=60)
    assert levels() >= done + 1
    finished = wsdb_cmd("build", "--n", 6, "--c", 2, "--db", db, "-q")
    assert finished.returncode == 0, finished.stderr
    assert [k for _, k, _ in rows(db, LEVELS, 6, 2)][:9] == thesis["classes_per_level"][
        "6x6_c2_levels_0_to_8_incomplete"
    ]
    row = wsdb.stored_builds(db=db)
    assert {(r["n"], r["c"], r["status"], r["god_number"]) for r in row} >= {(6, 2, "done", 12), (4, 4, "done", 12)}
    assert wsdb.verify(6, 2, db=db).ok
    # the other grids in the file were never touched
    assert rows(db, ROWS, 4, 4) == rows(db4, ROWS, 4, 4)


def test_only_one_build_writes_a_grid_at_a_time(tmp_path):
    db = tmp_path / "two.sqlite"
    first = subprocess.Popen(
        [sys.executable, "-m", "wsdb", "build", "--n", "6", "--c", "2", "--db", str(db), "-q"],
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.time() + 120
    while time.time() < deadline:
        try:
            if rows(db, LEVELS, 6, 2):
                break
        except sqlite3.OperationalError:
            pass
        time.sleep(0.1)
    second = wsdb_cmd("build", "--n", 6, "--c", 2, "--db", db, "-q")
    first.kill()
    first.wait(timeout=60)
    assert second.returncode == 2 and "still running" in second.stderr and "Traceback" not in second.stderr
