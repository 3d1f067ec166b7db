"""PostgreSQL for shared deployments (wsdb/db/store.py, the migrations):
the same commands against a real, throw-away PostgreSQL server, with the
same answers as SQLite's.

The server is started here with the machine's own ``initdb`` and
``pg_ctl`` (as the ``postgres`` user when the tests run as root) on a
temporary directory and a loopback port, and stopped afterwards. The
tests are skipped only where no server binary exists.
"""

import contextlib
import glob
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import wsdb

#: a PostgreSQL server and CLI processes
pytestmark = pytest.mark.integration


def _server_binaries() -> Path | None:
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True) + [
        str(Path(p).parent) for p in filter(None, [shutil.which("pg_ctl")])
    ]:
        if (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    return None


@pytest.fixture(scope="module")
def pg_url():
    bindir = _server_binaries()
    if bindir is None:
        pytest.skip("no PostgreSQL server binaries (initdb, pg_ctl) on this machine")
    base = Path(tempfile.mkdtemp(prefix="wsdb-pg-"))
    as_user = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        as_user = ["runuser", "-u", "postgres", "--"]
        shutil.chown(base, "postgres")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    data = base / "data"
    subprocess.run(
        [*as_user, str(bindir / "initdb"), "-D", str(data), "-U", "wsdb", "--auth=trust", "-E", "UTF8"],
        check=True,
        capture_output=True,
    )
    subprocess.run(
        [
            *as_user,
            str(bindir / "pg_ctl"),
            "-D",
            str(data),
            "-l",
            str(base / "log"),
            "-w",
            "-o",
            f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c fsync=off",
            "start",
        ],
        check=True,
        capture_output=True,
    )
    try:
        import psycopg

        with psycopg.connect(f"postgresql://wsdb@127.0.0.1:{port}/postgres", autocommit=True) as conn:
            conn.execute("create database wsdb")
        yield f"postgresql://wsdb@127.0.0.1:{port}/wsdb"
    finally:
        subprocess.run(
            [*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"], capture_output=True
        )
        shutil.rmtree(base, ignore_errors=True)


def cli(*args, input=None):
    return subprocess.run(
        [sys.executable, "-m", "wsdb", *map(str, args)], capture_output=True, text=True, input=input, timeout=600
    )


def pg_rows(url, sql):
    import psycopg

    with psycopg.connect(url) as conn:
        return [tuple(int(v) if type(v).__name__ == "Decimal" else v for v in row) for row in conn.execute(sql)]


def lite_rows(path, sql):
    with contextlib.closing(sqlite3.connect(path)) as conn:
        return conn.execute(sql).fetchall()


@pytest.fixture(scope="module")
def built(pg_url):
    for c in (3, 4):
        res = cli("build", "--n", 4, "--c", c, "--db", pg_url, "-q")
        assert res.returncode == 0, res.stderr
    res = cli("build", "--n", 6, "--c", 3, "--max-depth", 4, "--db", pg_url, "-q")  # keys wider than 63 bits
    assert res.returncode == 0, res.stderr
    return pg_url


def test_builds_store_the_same_rows_as_sqlite(built, db4, tmp_path):
    for c in (3, 4):
        q = f"select depth, classes, states from levels where n=4 and c={c} order by depth"
        assert pg_rows(built, q) == lite_rows(db4, q)
        q = f"select rep, depth, parent, orbit_size from class_rows where n=4 and c={c} order by rep"
        assert pg_rows(built, q) == lite_rows(db4, q)
    lite = tmp_path / "six.sqlite"
    wsdb.build(6, 3, db=lite, max_depth=4)
    q = "select depth, classes, states from levels where n=6 and c=3 order by depth"
    assert pg_rows(built, q) == lite_rows(lite, q)
    # wide keys: PostgreSQL holds numbers, SQLite big-endian bytes of the same value
    pg = pg_rows(built, "select rep, depth, parent, orbit_size from class_rows where n=6 and c=3 order by rep")
    lt = [
        (int.from_bytes(r, "big"), d, None if p is None else int.from_bytes(p, "big"), o)
        for r, d, p, o in lite_rows(
            lite, "select rep, depth, parent, orbit_size from class_rows where n=6 and c=3 order by rep"
        )
    ]
    assert pg == sorted(lt)
    # the classes view computes the same grids on both
    for n, c, path in ((4, 4, db4), (6, 3, lite)):
        q = f"select grid, depth from classes where n={n} and c={c} order by grid limit 500"
        assert pg_rows(built, q) == lite_rows(path, q)


def test_lookup_stats_verify_info_on_postgresql(built, db4):
    states = [wsdb.format_state(s) for s in wsdb.random_states(wsdb.wrapslide(4, 4), 300, seed=11)]
    res = cli("lookup", "-", "--db", built, input="\n".join(states) + "\n")
    assert res.returncode == 0, res.stderr
    want = [
        f"{a.state}: {a.distance} moves: {' '.join(a.moves) or '(solved)'}" for a in wsdb.lookup_many(states, db=db4)
    ]
    assert res.stdout.splitlines() == want
    six = wsdb.format_state(wsdb.random_states(wsdb.wrapslide(6, 3), 1, seed=2)[0])
    res = cli("lookup", six, "--db", built)
    assert res.returncode == 0 and "more than 4 moves" in res.stdout, res.stderr
    all_answer(built, ["verify", "--n", 6, "--c", 3], ["stats"], ["info"])  # keys wider than 63 bits
    # each tree's size on disk is its own table's: at least a key of 8 bytes a class
    from wsdb.stats import builds

    sizes = builds(built, root=None)
    assert sizes.db_bytes.notna().all() and (sizes.db_bytes >= 8 * sizes.classes).all(), sizes


@pytest.mark.slow  # 6 s: verify of the 4x4 trees, and the solver
def test_verify_and_solve_every_grid_on_postgresql(built):
    state = wsdb.format_state(wsdb.random_states(wsdb.wrapslide(4, 4), 1, seed=11)[0])
    all_answer(
        built, ["verify", "--n", 4, "--c", 4], ["verify", "--n", 4, "--c", 3], ["solve", state, "--time-limit", 5]
    )


def all_answer(url, *commands):
    """Each command, run against the server, succeeds without a traceback."""
    for command in commands:
        res = cli(*command, "--db", url)
        assert res.returncode == 0, (command, res.stderr)
        assert "Traceback" not in res.stderr


def test_schema_matches_the_models_on_postgresql(built):
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from wsdb.db.schema import metadata
    from wsdb.db.store import HEAD, Store

    parts = {
        name
        for (name,) in pg_rows(
            built, "select inhrelid::regclass::text from pg_inherits where inhparent = 'class_rows'::regclass"
        )
    }
    store = Store.open(built)
    with store.sql.connect() as conn:
        # the tree tables, partitions of class_rows (wsdb/db/tree_tables.py), are no tables of the models
        opts = {"compare_type": True, "include_name": lambda name, kind, _: kind != "table" or name not in parts}
        assert compare_metadata(MigrationContext.configure(conn, opts=opts), metadata) == []
    assert pg_rows(built, "select version_num from alembic_version") == [(HEAD,)]
    # one partition per stored tree, each finished one keyed on rep: a class is stored once
    trees = pg_rows(built, "select count(*) from builds")[0][0]
    assert len(parts) == trees >= 3
    keys = pg_rows(
        built,
        "select conrelid::regclass::text, pg_get_constraintdef(oid) from pg_constraint "
        "where contype = 'p' and conrelid::regclass::text like 'class_rows_%'",
    )
    assert sorted(keys) == sorted((p, "PRIMARY KEY (rep)") for p in parts)


def test_a_class_is_stored_once_per_tree_on_postgresql(built):
    import psycopg

    with psycopg.connect(built) as conn:
        with pytest.raises(psycopg.errors.UniqueViolation):
            conn.execute("insert into class_rows select * from class_rows where n = 4 and c = 3 limit 1")


def test_bad_input_and_missing_builds_on_postgresql(built):
    res = cli("lookup", "1111/2222/3333/4445", "--db", built)
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1
    res = cli("lookup", wsdb.format_state(wsdb.random_states(wsdb.wrapslide(6, 2), 1, seed=3)[0]), "--db", built)
    assert res.returncode == 2 and "wsdb build --n 6 --c 2" in res.stderr
    res = cli("lookup", "1212/3434/1243/3421", "--db", built.rsplit("/", 1)[0] + "/nosuchdb")
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1 and "Traceback" not in res.stderr


@pytest.mark.slow  # 4 s: the resume of tests/db/test_store.py, after kill -9, on PostgreSQL
def test_an_interrupted_build_resumes_on_postgresql(built, db4):
    driver = (
        "import os, signal, sys\nfrom wsdb.cli import main\nfrom wsdb.db import store\n"
        "real = store.Store.add_level\n"
        "def add_level(self, key, row, columns, totals, lease=None):\n"
        "    real(self, key, row, columns, totals, lease)\n"
        "    if row['depth'] == 6: os.kill(os.getpid(), signal.SIGKILL)\n"
        "store.Store.add_level = add_level\n"
        "sys.argv = ['wsdb', 'build', '--n', '4', '--c', '2', '--db', sys.argv[1], '-q']\nmain()\n"
    )
    killed = subprocess.run([sys.executable, "-c", driver, built], capture_output=True, text=True, timeout=300)
    assert killed.returncode == -9
    res = cli("lookup", "1122/1122/2222/2222", "--db", built)
    assert res.returncode == 2 and "interrupted at depth 6" in res.stderr
    assert cli("build", "--n", 4, "--c", 2, "--db", built, "-q").returncode == 0
    q = "select rep, depth, parent, orbit_size from class_rows where n=4 and c=2 order by rep"
    assert pg_rows(built, q) == lite_rows(db4, q)


@pytest.mark.slow  # 7 s: stored solver runs, as on SQLite in the default run
def test_solver_runs_on_postgresql(built, db4, tmp_path):
    import shutil

    from wsdb.solver.evaluate import evaluate

    res = cli("eval", "--n", 4, "--c", 4, "--count", 6, "--seed", 3, "--db", built)
    assert res.returncode == 0 and "Traceback" not in res.stderr, res.stderr
    lite = tmp_path / "runs.sqlite"
    shutil.copy(db4, lite)
    evaluate(4, 4, 6, seed=3, db=lite)
    q = "select idx, state, length, lower_bound, exact from solves order by idx"
    assert pg_rows(built, q) == lite_rows(lite, q)
    res = cli("stats", "--solves", "--json", "--db", built)
    assert res.returncode == 0 and '"mean_gap_exact": 0.0' in res.stdout, res.stderr


@pytest.mark.slow  # three more puzzles' trees, each built twice: 20 s
def test_other_puzzles_store_and_read_the_same_on_postgresql(built, tmp_path):
    lite = tmp_path / "other.sqlite"
    trees = [
        ("rubiks-slide-hard", "1110/0100/0000/0000", None),
        ("rubeish", "123/456/789", 4),
        ("rubiks-slide-hard", "1234/5678/9ABC/DEFG", 3),
    ]  # the last: 64-bit keys, BLOBs in SQLite
    for puzzle, goal, depth in trees:
        extra = [] if depth is None else ["--max-depth", depth]
        for db in (built, lite):
            res = cli(
                "build", "--puzzle", puzzle, "--n", len(goal.split("/")), "--goal", goal, *extra, "--db", db, "-q"
            )
            assert res.returncode == 0, res.stderr
        q = (
            f"select grid, depth, orbit_size from classes where puzzle = '{puzzle}' and root = '{goal}' "
            "order by depth, grid"
        )
        assert pg_rows(built, q) == lite_rows(lite, q) and len(pg_rows(built, q)) > 100
    for db in (built, lite):  # a board that is not square
        res = cli("build", "--puzzle", "sliding", "--n", 2, "--m", 3, "--db", db, "-q")
        assert res.returncode == 0, res.stderr
    q = "select grid, depth from classes where puzzle = 'sliding' order by grid"
    assert pg_rows(built, q) == lite_rows(lite, q) and len(pg_rows(built, q)) == 360
    state = lite_rows(lite, "select grid from classes where puzzle = 'rubiks-slide-hard' and depth = 8")[0][0]
    res = cli("lookup", state, "--puzzle", "rubiks-slide-hard", "--goal", "1110/0100/0000/0000", "--db", built)
    assert res.returncode == 0 and ": 8 moves: " in res.stdout, res.stderr
    assert cli("stats", "--puzzle", "rubeish", "--db", built).returncode == 0


@pytest.mark.slow  # 9 s: revision 0007 on PostgreSQL, up and down
def test_the_partitioning_migration_keeps_every_row_both_ways(pg_url, db4):
    """Revision 0007 moves a 0006 database's rows into one partition per
    tree, and back: the rows, the view's grids and the key hold throughout."""
    import psycopg
    from alembic import command
    from alembic.config import Config
    from importlib import resources

    import sqlalchemy as sa

    url = pg_url.rsplit("/", 1)[0] + "/upgrade"
    with psycopg.connect(pg_url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        conn.execute("create database upgrade")
    cfg = Config()
    cfg.set_main_option("script_location", str(resources.files("wsdb.db.migrations")))
    sql = sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    q = "select n, c, root, rep, depth, parent, orbit_size from class_rows order by n, c, rep"
    want = [
        (4, c, "all", *row)
        for c in (3, 4)
        for row in lite_rows(db4, f"select rep, depth, parent, orbit_size from class_rows where c = {c} order by rep")
    ]

    def migrate(to):
        with sql.begin() as conn:
            cfg.attributes["connection"] = conn
            (command.upgrade if to == "head" else command.downgrade)(cfg, to)

    with sql.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0006")  # the schema before partitions, rows written by hand
    with psycopg.connect(url) as conn:
        with conn.cursor().copy("copy class_rows (n, c, root, rep, depth, parent, orbit_size) from stdin") as cp:
            for row in want:
                cp.write_row(row)
    grids = pg_rows(url, "select grid, depth from classes where c = 4 order by grid limit 300")
    migrate("head")
    assert pg_rows(url, q) == want
    assert pg_rows(url, "select grid, depth from classes where c = 4 order by grid limit 300") == grids
    assert len(pg_rows(url, "select inhrelid from pg_inherits where inhparent = 'class_rows'::regclass")) == 2
    migrate("0006")
    assert pg_rows(url, q) == want
    assert pg_rows(url, "select grid, depth from classes where c = 4 order by grid limit 300") == grids
    assert pg_rows(url, "select pg_get_constraintdef(oid) from pg_constraint where conname = 'class_rows_pkey'") == [
        ("PRIMARY KEY (n, c, root, puzzle_id, rep)",)
    ]
    sql.dispose()


@pytest.mark.slow  # 5 s: the import of tests/db/test_import_levels.py, into PostgreSQL by COPY
def test_parquet_levels_import_into_postgresql_as_the_rows_of_a_build(pg_url, db4, tmp_path):
    import psycopg

    pytest.importorskip("pyarrow")
    from ..parquet_levels import write_levels

    url = pg_url.rsplit("/", 1)[0] + "/imported"
    with psycopg.connect(pg_url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        conn.execute("create database imported")
    write_levels(db4, 4, 4, str(tmp_path / "levels"), partitions=8)
    res = cli("import", tmp_path / "levels", "--db", url, "-q")
    assert res.returncode == 0, res.stderr
    q = "select rep, depth, parent, orbit_size from class_rows where n=4 and c=4 order by rep"
    assert pg_rows(url, q) == lite_rows(db4, q)
    assert cli("verify", "--n", 4, "--c", 4, "--db", url, "-q").returncode == 0
    res = cli("import", tmp_path / "levels", "--db", url, "-q")  # held as rows now: refused, kept
    assert res.returncode == 2 and "--force" in res.stderr and pg_rows(url, q) == lite_rows(db4, q)


@pytest.mark.slow  # 7 s: the same resume as tests/bounds/test_shares.py, on PostgreSQL
def test_a_proof_keeps_its_shares_and_resumes_on_postgresql(pg_url, exact_distance):
    # a proof cut by its effort keeps its shares in PostgreSQL; the rerun goes on from them, and a
    # fresh rerun finds every share stored already, the same
    import json

    import psycopg

    from wsdb.puzzle import format_state, random_states, wrapslide

    with psycopg.connect(pg_url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        conn.execute("create database proofs")
    url = pg_url.rsplit("/", 1)[0] + "/proofs"
    for args in (["--c", 2], ["--c", 4, "--max-depth", 4]):
        assert cli("build", "--n", 4, *args, "--db", url, "-q").returncode == 0
    distance = exact_distance(4)
    cells = next(x for x in random_states(wrapslide(4, 4), 80, seed=47) if distance(x) > 7)
    state, d = format_state(cells), distance(cells)
    cut = cli("bounds", "prove", state, "--at-least", d, "--effort", 0.002, "--db", url, "-q")
    assert cut.returncode == 0 and "the same command goes on from them" in cut.stdout, cut.stderr
    kept = pg_rows(url, "select count(*) from proof_shares")[0][0]
    rest = cli("bounds", "prove", state, "--at-least", d, "--db", url, "--json")
    row = json.loads(rest.stdout)
    assert row["value"] == d and row["witness"]["shares_reused"] == kept > 0
    fresh = cli("bounds", "prove", state, "--at-least", d, "--db", url, "--fresh", "--json")
    assert fresh.returncode == 0 and json.loads(fresh.stdout)["value"] == d, fresh.stderr
    assert (
        pg_rows(url, "select count(*) from proof_shares")[0][0]
        == pg_rows(url, "select count(distinct (bound, share)) from proof_shares")[0][0]
    )


def test_leases_on_postgresql(built):
    """Claims of one tree wait for each other (an advisory lock) and swap
    the lease row only as read: of four racing, one holds it; a stale one
    is taken over, saying whose it was."""
    import time

    from wsdb.db.lease import Lease
    from wsdb.db.store import Store
    from wsdb.puzzle.tree_key import TreeKey

    from .test_lease import race

    tree = TreeKey.wrapslide(4, 2)  # not built in this server's database
    won, refused = race(built, tree)
    assert len(won) == 1 and len(refused) == 3 and all("still running (held by" in e for e in refused)
    first = won[0]
    pg_rows(built, f"update leases set renewed_at = {time.time() - 3600} where n = 4 and c = 2 returning n")
    second = Lease.take(Store.open(built, write=True), tree, heartbeat=False)
    assert second.taken_from is not None and second.taken_from.token == first.token
    second.release()
    assert pg_rows(built, "select count(*) from leases") == [(0,)]


def test_a_lost_connection_and_a_missing_relation_are_one_line_on_postgresql(pg_url, built):
    """The server's storage failing under a command (its connection cut in
    the middle of verify's reads; a table dropped) is one line naming the
    database, exit 1, never a traceback."""
    import threading
    import time

    import psycopg

    stop = threading.Event()

    def cut():  # every other backend of the database, again and again
        with psycopg.connect(built, autocommit=True) as conn:
            while not stop.is_set():
                conn.execute(
                    "select pg_terminate_backend(pid) from pg_stat_activity "
                    "where datname = current_database() and pid <> pg_backend_pid() and state = 'active'"
                )
                time.sleep(0.02)

    cutter = threading.Thread(target=cut)
    cutter.start()
    try:
        res = cli("verify", "--n", 4, "--c", 4, "--db", built)
    finally:
        stop.set()
        cutter.join()
    assert "Traceback" not in res.stderr
    lines = res.stderr.strip().splitlines()
    assert res.returncode == 1 and lines[-1].startswith("wsdb: lost the connection to "), res.stderr
    assert cli("verify", "--n", 4, "--c", 4, "--db", built).returncode == 0  # nothing was changed

    base = pg_url.rsplit("/", 1)[0]
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        conn.execute("create database dropped")
    url = f"{base}/dropped"
    assert cli("build", "--n", 4, "--c", 2, "--db", url, "-q").returncode == 0
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("drop table levels cascade")
    res = cli("verify", "--n", 4, "--c", 2, "--db", url)  # verify's own report
    assert res.returncode == 1 and "no table levels" in res.stdout and "Traceback" not in res.stderr
    for words in (["stats"], ["stats", "--n", 4, "--c", 2], ["build", "--n", 4, "--c", 2, "--force", "-q"]):
        res = cli(*words, "--db", url)
        assert len(res.stderr.strip().splitlines()) == 1, (words, res.returncode, res.stdout, res.stderr)
        line = res.stderr.strip()
        assert res.returncode == 1 and "a wsdb table is gone" in line and 'relation "levels"' in line, res.stderr
