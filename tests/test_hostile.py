"""Hostile input through the real CLI (docs/guarantees.md): random text,
unicode, huge states, wrong sizes, counts, symbols and moves, mixed stdin,
binary garbage, bad numbers, damaged and foreign database files, a
read-only filesystem and a full disk.

Every case must end with exit status 0 or 2; a 2 comes with exactly one
line on stderr starting "wsdb: " and no traceback (click's runner is used
with catch_exceptions=False, so any exception fails the test), and the
rows stored before are unchanged (a checksum over every table).
Hypothesis draws most cases; ``CASES`` counts them (docs/guarantees.md).
"""

import contextlib
import hashlib
import shutil
import sqlite3
import subprocess
import sys
import uuid

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st

import wsdb
from wsdb.cli import main

EXAMPLES = 150
FAST = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
GOOD = "1212/3434/1243/3421"


def checksum(path) -> str:
    """SHA-256 over the database file and its write-ahead log: equal bytes,
    equal rows (and fast enough to take after every case)."""
    h = hashlib.sha256()
    for part in (path, path.with_name(path.name + "-wal")):
        if part.exists():
            h.update(part.read_bytes())
    return h.hexdigest()


def row_checksum(path) -> str:
    """SHA-256 over every row of every table, in a fixed order."""
    h = hashlib.sha256()
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
        tables = [r[0] for r in conn.execute("select name from sqlite_master where type='table' order by name")]
        for t in tables:
            h.update(t.encode())
            for row in sorted(conn.execute(f"select * from {t}"), key=repr):
                h.update(repr(row).encode())
    return h.hexdigest()


@pytest.fixture(scope="module")
def shared(db4, tmp_path_factory):
    """A copy of the 4x4 database that every hostile case runs against."""
    path = tmp_path_factory.mktemp("hostile") / "wsdb.sqlite"
    shutil.copy(db4, path)
    return path, checksum(path)


CALLS = {"n": 0}  # CLI calls made, printed by `pytest -s tests/test_hostile.py` (docs/guarantees.md)


@pytest.fixture(scope="module", autouse=True)
def count_calls():
    yield
    print(f"\nhostile CLI calls: {CALLS['n']}")


def invoke(args, input=None):
    CALLS["n"] += 1
    return CliRunner().invoke(main, [str(a) for a in args], input=input, catch_exceptions=False)


def assert_clean(res, db=None, before=None):
    assert res.exit_code in (0, 1, 2), (res.exit_code, res.output)  # 1: the storage's fault
    assert "Traceback" not in res.output
    if res.exit_code in (1, 2):
        lines = res.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("wsdb: "), res.stderr
    if db is not None:
        assert checksum(db) == before


symbols = st.text(alphabet="1234abAB/ ,\n.-é漢\x00\t", max_size=80)
anything = st.text(max_size=200)
states = symbols | anything


@FAST
@given(state=states)
def test_lookup_any_text(shared, state):
    db, before = shared
    if state.startswith("-") or not state.strip():
        state = "x" + state  # '-' is stdin, and click takes '--x' for an option
    assert_clean(invoke(["lookup", state, "--db", db]), db, before)


@FAST
@given(lines=st.lists(st.sampled_from([GOOD, "1122/1122/3344/3344", "2222/2222/1122/1122"]) | states, max_size=8))
def test_lookup_stdin_mixing_good_and_bad_lines(shared, lines):
    db, before = shared
    res = invoke(["lookup", "-", "--db", db, "--json"], input="\n".join(lines) + "\n")
    assert_clean(res, db, before)
    if res.exit_code == 2:
        assert res.stdout == ""  # a batch with a bad line prints no answers


@FAST
@given(data=st.binary(max_size=300))
def test_binary_garbage_on_stdin(shared, data):
    db, before = shared
    for command in (["lookup", "-"], ["solve", "-", "--time-limit", "1"]):
        assert_clean(invoke([*command, "--db", db], input=data), db, before)


@FAST
@given(
    state=states,
    moves=st.lists(st.text(max_size=4) | st.sampled_from(["T1", "B3", "L2", "R9", "Q1", "t1"]), max_size=5),
)
def test_apply_any_moves(state, moves):
    if state.startswith("-") or not state.strip():
        state = "x" + state
    moves = [m if m and not m.startswith("-") else "x" + m for m in moves]
    assert_clean(invoke(["apply", state, *moves]))


bad_n = st.sampled_from([0, 1, 3, 5, 7, -2, -4, 18, 1000, 10**9])
any_c = st.integers(-3, 12)


@FAST
@given(n=bad_n | st.sampled_from([4, 6, 8]), c=any_c, depth=st.none() | st.integers(-5, 3))
def test_build_verify_stats_with_bad_numbers(shared, n, c, depth):
    db, before = shared
    good_grid = n in (4, 6, 8) and c in (2, 3, 4)
    if good_grid and (depth is None or depth >= 0):
        c, good_grid = 9, False  # only bad combinations: a good one would start a real build
    extra = [] if depth is None else ["--max-depth", depth]
    commands = [["build", "--n", n, "--c", c, *extra]]
    if not good_grid:  # with a good grid only the depth is bad, and only build takes it
        commands += [
            ["verify", "--n", n, "--c", c],
            ["stats", "--n", n, "--c", c],
            ["random", "--n", n, "--c", c],
            ["export", "--n", n, "--c", c, "/dev/null"],
        ]
    for command in commands:
        res = invoke([*command, "--db", db])
        assert res.exit_code == 2
        assert_clean(res, db, before)


@FAST
@given(count=st.integers(-10, 3) | st.sampled_from([10**12]), seed=st.integers(-5, 5) | st.text(max_size=3))
def test_random_with_bad_counts(count, seed):
    res = invoke(["random", "--n", 4, "--c", 4, "--count", count, "--seed", seed])
    assert_clean(res)


@pytest.mark.parametrize(
    "state",
    [
        "1" * 10**6,  # a 10^6-character state
        ("12" * 500_000),
        "1212/3434/1243/3421" + "/1212" * 200_000,
        "\U0001f600" * 16,
        "１２１２/３４３４/１２４３/３４２１",  # full-width digits: 4 distinct symbols, fine
        "1212/3434/1243/342\u0301",
    ],
)
def test_huge_and_exotic_states(shared, state):
    db, before = shared
    for command in (["lookup", state], ["solve", state, "--time-limit", "1"]):
        assert_clean(invoke([*command, "--db", db]), db, before)


def test_empty_stdin(shared):
    db, before = shared
    for command in (["lookup", "-"], ["solve", "-"]):
        res = invoke([*command, "--db", db], input="")
        assert_clean(res, db, before)
        assert res.stdout == ""


# ---- damaged, foreign and unreachable database files ------------------------------


def newer_schema(path, db4):
    shutil.copy(db4, path)
    with contextlib.closing(sqlite3.connect(path)) as conn, conn:
        conn.execute("update alembic_version set version_num = '9999'")


def truncated(path, db4):
    data = db4.read_bytes()
    path.write_bytes(data[: len(data) // 3])


@pytest.mark.parametrize(
    "make, fragment",
    [
        (lambda p, _: p.mkdir(), "is a directory"),
        (lambda p, _: p.write_bytes(b"SQLite format 2\0" + b"x" * 5000), "not a SQLite database"),
        (lambda p, _: p.write_text("just some text\n" * 100), "not a SQLite database"),
        (truncated, "is damaged (SQLite: database disk image is malformed)"),  # the storage's fault: exit 1
        (newer_schema, "newer wsdb"),
    ],
)
@pytest.mark.parametrize(
    "command",
    [
        ["lookup", GOOD],
        ["verify", "--n", "4", "--c", "4"],
        ["stats"],
        ["info"],
        ["build", "--n", "4", "--c", "2"],
        ["solve", GOOD, "--time-limit", "1"],
    ],
)
def test_bad_database_files(tmp_path, db4, make, fragment, command):
    path = tmp_path / "bad.sqlite"
    make(path, db4)
    before = path.read_bytes() if path.is_file() else None
    res = invoke([*command, "--db", path])
    assert res.exit_code == (1 if "is damaged" in fragment else 2) and fragment in res.stderr, res.stderr
    assert_clean(res)
    if before is not None:
        assert path.read_bytes() == before


# ---- a read-only filesystem and a full disk (real mounts, as root) ------------------


@contextlib.contextmanager
def tmpfs(tmp_path, size: str):
    where = tmp_path / f"mnt-{uuid.uuid4().hex[:6]}"
    where.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], capture_output=True, text=True
    )
    if done.returncode:
        pytest.skip(f"cannot mount a small filesystem here ({done.stderr.strip()}): needs root")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def remount(where, options):
    subprocess.run(["mount", "-o", f"remount,{options}", str(where)], check=True)


def run_wsdb(*args, input=None):
    CALLS["n"] += 1
    return subprocess.run(
        [sys.executable, "-m", "wsdb", *map(str, args)], capture_output=True, text=True, input=input, timeout=300
    )


@pytest.mark.integration
def test_read_only_filesystem(tmp_path, db4):
    with tmpfs(tmp_path, "64m") as where:
        db = where / "wsdb.sqlite"
        shutil.copy(db4, db)
        before = row_checksum(db)
        want = wsdb.lookup(GOOD, db=db4)
        remount(where, "ro")
        res = run_wsdb("lookup", GOOD, "--db", db, "--json")
        assert res.returncode == 0 and f'"distance": {want.distance}' in res.stdout, res.stderr
        res = run_wsdb("lookup", "-", "--db", db, input=f"{GOOD}\n1122/1122/3344/3344\n")
        assert res.returncode == 0 and len(res.stdout.splitlines()) == 2, res.stderr
        for command in (
            ["verify", "--n", 4, "--c", 3],
            ["stats", "--n", 4, "--c", 3],
            ["info"],
            ["solve", GOOD, "--time-limit", 2],
        ):
            res = run_wsdb(*command, "--db", db)
            assert res.returncode == 0, (command, res.stderr)
        res = run_wsdb("build", "--n", 6, "--c", 2, "--db", db)
        assert res.returncode == 2 and "Traceback" not in res.stderr
        assert len(res.stderr.strip().splitlines()) == 1 and "read-only" in res.stderr, res.stderr
        res = run_wsdb("build", "--n", 4, "--c", 2, "--db", where / "new.sqlite")
        assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1, res.stderr
        assert row_checksum(db) == before


@pytest.mark.integration
def test_full_disk_keeps_the_old_data_and_resumes(tmp_path, db4):
    with tmpfs(tmp_path, "2m") as where:
        db = where / "wsdb.sqlite"
        assert run_wsdb("build", "--n", 4, "--c", 2, "--db", db, "-q").returncode == 0
        before = {t: rows for t, rows in _rows_of(db, 4, 2).items()}
        res = run_wsdb("build", "--n", 4, "--c", 4, "--db", db)
        assert res.returncode == 1 and "Traceback" not in res.stderr  # the storage's fault
        last = res.stderr.strip().splitlines()[-1]
        assert last.startswith("wsdb: ") and "disk is full" in last, res.stderr
        assert _rows_of(db, 4, 2) == before  # the finished build is intact
        said = run_wsdb("lookup", GOOD, "--db", db)
        assert said.returncode == 2 and ("interrupted at depth" in said.stderr or "has no 4x4 4-colour" in said.stderr)
        remount(where, "size=64m")
        assert run_wsdb("build", "--n", 4, "--c", 4, "--db", db, "-q").returncode == 0
        assert wsdb.lookup(GOOD, db=db).distance == wsdb.lookup(GOOD, db=db4).distance
        assert wsdb.verify(4, 4, db=db).ok


def _rows_of(db, n, c):
    with contextlib.closing(sqlite3.connect(db)) as conn:
        return {
            t: conn.execute(f"select * from {t} where n={n} and c={c} order by 1, 2, 3, 4").fetchall()
            for t in ("builds", "levels", "class_rows")
        }


DB_COMMANDS = [
    ["lookup", GOOD],
    ["solve", GOOD, "--time-limit", "1"],
    ["info"],
    ["stats"],
    ["verify", "--n", "4", "--c", "2"],
    ["build", "--n", "4", "--c", "2"],
    ["random", "--n", "4", "--c", "2"],
    ["eval", "--n", "4", "--c", "2", "--count", "1", "--seed", "1"],
    ["export", "out.csv", "--n", "4", "--c", "2"],
]


@pytest.mark.parametrize("command", DB_COMMANDS, ids=lambda c: c[0])
@pytest.mark.parametrize("db", ["long name", "symlink loop", "/proc/self/status", "empty"])
def test_unusable_database_names_are_one_line_in_every_command(tmp_path, monkeypatch, command, db):
    # each gave a traceback or a wrong reason ("has an older schema") in some command
    monkeypatch.chdir(tmp_path)
    if db == "long name":
        db = str(tmp_path / ("x" * 300))
    elif db == "symlink loop":
        (tmp_path / "a").symlink_to(tmp_path / "b")
        (tmp_path / "b").symlink_to(tmp_path / "a")
        db = str(tmp_path / "a")
    elif db == "empty":
        db = ""
    res = invoke([*command, "--db", db])
    if command[0] == "random":  # Wrapslide's random states need no database
        assert res.exit_code == 0
        return
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("wsdb: ") and len(lines[0]) < 300, res.stderr
    assert "older schema" not in lines[0] and not (tmp_path / "out.csv").exists()
