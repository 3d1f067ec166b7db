"""Builds held by leases (wsdb/db/lease.py, wsdb/db/status.py): a stale
foreign lease is taken over and the build resumes; a fresh one is refused
in one line naming its holder and age; builds started at the same instant
leave exactly one building; a builder killed with -9 is taken over once its
lease is stale, and the tree ends verified; of builders racing for a stale
lease exactly one wins; a holder whose lease was taken stores nothing more."""

import sqlite3
import subprocess
import sys
import threading
import time

import pytest

import wsdb
from wsdb.db.lease import HeldError, Lease, LeaseLostError
from wsdb.db.store import Store
from wsdb.db.tree_writer import TreeWriter
from wsdb.puzzle.tree_key import TreeKey

#: a process that waits for a given instant, then runs the CLI: builds started together
AT = (
    "import sys, time; from wsdb.cli import entry; import wsdb.db.build, wsdb.db.store; "
    "t = float(sys.argv[1]); sys.argv = ['wsdb'] + sys.argv[2:]; "
    "time.sleep(max(0.0, t - time.time())); entry()"
)


def cli(*args, **kw):
    return subprocess.run(
        [sys.executable, "-m", "wsdb", *map(str, args)], capture_output=True, text=True, timeout=300, **kw
    )


def together(*commands, delay=3.0):
    """Start every command (a list of CLI words) at the same instant."""
    t = time.time() + delay
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", AT, str(t), *map(str, words)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for words in commands
    ]
    return [(p.wait(timeout=300), *p.communicate()) for p in procs]


def set_lease(db, holder, age, timeout=300.0, n=4, c=3):
    with sqlite3.connect(db) as conn:
        conn.execute("delete from leases where n = ? and c = ?", (n, c))
        conn.execute(
            "insert into leases values ('wrapslide', ?, ?, 'all', ?, 'theirs', '2026-12-01T00:00:00+00:00', ?, ?)",
            (n, c, holder, time.time() - age, timeout),
        )
        conn.execute("update builds set status = 'building', builder = ? where n = ? and c = ?", (holder, n, c))
    with sqlite3.connect(db) as conn:  # the file alone holds it: its bytes can be compared
        conn.execute("pragma wal_checkpoint(truncate)")


@pytest.fixture
def partial(tmp_path):
    """4x4 three colours stored to depth 5, then marked as being built."""
    db = tmp_path / "w.sqlite"
    wsdb.build(4, 3, db=db, max_depth=5)
    return db


def test_a_stale_foreign_lease_is_taken_over_and_the_build_resumes(partial, thesis):
    set_lease(partial, "otherhost:1234", age=3600)
    r = cli("build", "--n", 4, "--c", 3, "--db", partial)
    assert r.returncode == 0, r.stderr
    said = r.stderr.splitlines()
    assert any("took over the build held by otherhost:1234" in line and "60 min ago" in line for line in said), said
    depths = [int(line.split()[1]) for line in said if line.startswith("depth")]
    assert depths and depths[0] == 6  # from the last finished level, not from the root
    assert wsdb.verify(4, 3, db=partial).ok
    with sqlite3.connect(partial) as conn:
        assert conn.execute("select count(*) from leases").fetchone() == (0,)  # given up when done
        assert conn.execute("select status, builder from builds where c = 3").fetchone() == ("done", None)


def test_a_fresh_foreign_lease_is_refused_in_one_line_naming_holder_and_age(partial):
    set_lease(partial, "otherhost:1234", age=40)
    before = partial.read_bytes()
    for extra in ([], ["--force"]):
        r = cli("build", "--n", 4, "--c", 3, "--db", partial, *extra)
        assert r.returncode == 2 and "Traceback" not in r.stderr
        (line,) = r.stderr.strip().splitlines()
        assert "still running (held by otherhost:1234, renewed 4" in line and "stale after 5 min" in line, line
    looked = cli("lookup", "1212/3333/1212/3333", "--db", partial)
    assert looked.returncode == 2 and "still running" in looked.stderr and "otherhost:1234" in looked.stderr
    assert partial.read_bytes() == before


def test_a_build_row_an_older_wsdb_left_is_judged_by_its_last_level(partial):
    """No lease row: a 'building' row's builder, renewed when it stored its
    last level (built_at): a day old is stale, whatever host it names."""
    with sqlite3.connect(partial) as conn:
        conn.execute(
            "update builds set status = 'building', builder = 'otherhost:1234', "
            "built_at = '2026-01-01T00:00:00+00:00' where c = 3"
        )
    r = cli("build", "--n", 4, "--c", 3, "--db", partial)
    assert r.returncode == 0, r.stderr
    assert "took over the build held by otherhost:1234" in r.stderr
    assert wsdb.verify(4, 3, db=partial).ok


@pytest.mark.parametrize("new_file", [True, False], ids=["new-file", "existing-file"])
def test_two_builds_started_at_the_same_instant_one_builds_one_is_refused(tmp_path, new_file):
    db = tmp_path / "w.sqlite"
    if not new_file:
        wsdb.build(4, 2, db=db)
    words = ["build", "--n", 4, "--c", 3, "--db", db, "-q"]
    results = together(words, words)
    codes = sorted(code for code, _, _ in results)
    assert codes == [0, 2], results
    (refused,) = [err for code, _, err in results if code == 2]
    assert "Traceback" not in refused and len(refused.strip().splitlines()) == 1, refused
    assert "4x4 3-colour build is still running" in refused
    assert wsdb.verify(4, 3, db=db).ok


def test_a_builder_killed_with_9_is_taken_over_after_its_timeout(tmp_path, thesis):
    db = tmp_path / "w.sqlite"
    build = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "wsdb",
            "build",
            "--n",
            "6",
            "--c",
            "2",
            "--db",
            str(db),
            "-q",
            "--max-depth",
            "8",
            "--lease-timeout",
            "3",
        ],
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.time() + 120
    while time.time() < deadline:
        try:
            with sqlite3.connect(db) as conn:
                if conn.execute("select count(*) from levels where n = 6").fetchone()[0] >= 7:
                    break
        except sqlite3.OperationalError:
            pass
        time.sleep(0.05)
    build.kill()
    build.wait(timeout=60)
    with sqlite3.connect(db) as conn:  # as if its machine had gone: no process id to check here
        conn.execute("update leases set holder = 'gonehost:' || substr(holder, instr(holder, ':') + 1)")
        (holder,) = conn.execute("select holder from leases").fetchone()
    with pytest.raises(HeldError, match=f"held by {holder}, renewed"):  # within its timeout: still its own
        TreeWriter.claim(db, TreeKey.wrapslide(6, 2))
    time.sleep(3.5)
    r = cli("build", "--n", 6, "--c", 2, "--db", db, "--max-depth", 8)
    assert r.returncode == 0, r.stderr
    assert f"took over the build held by {holder}" in r.stderr
    assert wsdb.verify(6, 2, db=db).ok
    levels = [row["classes"] for row in Store.open(db).level_rows(TreeKey.wrapslide(6, 2))]
    assert levels[:9] == thesis["classes_per_level"]["6x6_c2_levels_0_to_8_incomplete"]


def race(db, tree, claimers: int = 4) -> tuple[list, list[str]]:
    """``claimers`` threads, each with a store of its own, released at one
    instant to take the lease of ``tree``: (leases won, refusals)."""
    start = threading.Barrier(claimers)
    won, refused = [], []

    def claim():
        store = Store.open(db, write=True)
        start.wait()
        try:
            won.append(Lease.take(store, tree, heartbeat=False))
        except HeldError as e:
            refused.append(str(e))

    threads = [threading.Thread(target=claim) for _ in range(claimers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return won, refused


def test_of_builders_racing_for_a_stale_lease_exactly_one_wins(partial):
    tree = TreeKey.wrapslide(4, 3)
    for _ in range(5):
        set_lease(partial, "otherhost:1234", age=3600)
        won, refused = race(partial, tree)
        assert len(won) == 1 and len(refused) == 3, (won, refused)
        assert all("4x4 3-colour build is still running" in line for line in refused)
        won[0].release()


def test_a_holder_whose_lease_was_taken_over_stores_nothing_more(partial):
    tree = TreeKey.wrapslide(4, 3)
    store = Store.open(partial, write=True)
    with sqlite3.connect(partial) as conn:
        conn.execute("update builds set status = 'building' where c = 3")
    first = Lease.take(store, tree, timeout=0.5, heartbeat=False)
    time.sleep(0.6)  # no heartbeat: it goes stale
    second = Lease.take(store, tree, heartbeat=False)
    assert second.taken_from is not None and second.taken_from.token == first.token
    before = store.build_row(tree)
    with pytest.raises(LeaseLostError, match="taken over by"):
        store.update_build(tree, {"height": 99}, first)
    assert store.build_row(tree)["height"] == before["height"]  # rolled back with the renewal
    store.update_build(tree, {"max_depth": 6}, second)  # the new holder writes
    second.release()


def test_a_lease_is_renewed_while_its_holder_works(partial):
    tree = TreeKey.wrapslide(4, 3)
    store = Store.open(partial, write=True)
    lease = Lease.take(store, tree, timeout=1.0)  # renews every 0.2 s
    time.sleep(1.5)
    with pytest.raises(HeldError):  # older than its timeout, but renewed: live
        Lease.take(Store.open(partial, write=True), tree, heartbeat=False)
    lease.release()
    Lease.take(store, tree, heartbeat=False).release()  # given up: free at once
