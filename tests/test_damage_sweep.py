"""The damage sweep (docs/guarantees.md): every command that reads or
writes a database, and every API endpoint that does, against each kind of
damage SQLite can meet in the middle of a read: pages of every table
overwritten (their headers, their whole bytes, zeroed), the file cut short
at and between pages, header fields made impossible, a table dropped, a
write-ahead log of garbage.

Each run answers as the undamaged file does (exit 0, the same output),
or in one line starting "wsdb: " with exit status 1 (the storage's fault;
HTTP 500 with a one-line detail); never a traceback, and the damaged file
is not changed by the attempt. Wrong answers are impossible to miss: each
output is compared with the one the undamaged file gives."""

import hashlib
import os
import random
import shutil
import sqlite3

import pytest
from click.testing import CliRunner

import wsdb
from wsdb.cli import main

N, C = 4, 3
PAGE = 16384  # wsdb's page size for new files (wsdb/db/connection.py)
STATES = [wsdb.format_state(s) for s in wsdb.random_states(wsdb.wrapslide(N, C), 4, seed=5)]

COMMANDS = {
    "lookup": ["lookup", STATES[0]],
    "lookup-many": ["lookup", "-", "--json"],
    "solve": ["solve", STATES[1], "--time-limit", "1"],
    "verify": ["verify", "--n", N, "--c", C],
    "stats": ["stats"],
    "stats-grid": ["stats", "--n", N, "--c", C, "--json"],
    "export": ["export", "-", "--n", N, "--c", C],
    "random": ["random", "--n", N, "--c", C, "--depth", 6, "--count", 3, "--seed", 1],
    "info": ["info", "--json"],
    "info-grid": ["info", "--n", N, "--c", C],
    "build-done": ["build", "--n", N, "--c", C, "-q"],
    "build-new": ["build", "--n", N, "--c", 2, "-q"],
    "bounds": ["bounds"],
    "bounds-compute": ["bounds", "compute", "--n", N, "--c", C, "-q"],
    "db-current": ["db", "current"],
}
#: commands that write (a new tree, the bounds a build allows)
WRITES = {"build-new", "bounds-compute"}
#: outputs that name the file's size or age, not its rows: compared for exit status only
UNSTABLE = {"info", "info-grid", "db-current", "build-new", "solve", "bounds-compute"}


def _pages(path) -> dict[str, int]:
    with sqlite3.connect(path) as conn:
        return {
            name: root for name, root in conn.execute("select name, rootpage from sqlite_master where rootpage > 0")
        }


def _overwrite(page: int, what: str):
    def damage(path):
        with open(path, "r+b") as f:
            at = (page - 1) * PAGE + (100 if page == 1 else 0)
            f.seek(at)
            if what == "zero":
                f.write(bytes(PAGE - (100 if page == 1 else 0)))
            elif what == "header":  # the b-tree page's type and cell count
                f.write(b"\xff\x00\x00\xff\xff")
            else:
                f.write(random.Random(page).randbytes(PAGE - (100 if page == 1 else 0)))

    return damage


def _cut(fraction: float, aligned: bool):
    def damage(path):
        size = os.path.getsize(path)
        at = int(size * fraction)
        with open(path, "r+b") as f:
            f.truncate(at - at % PAGE if aligned else at)

    return damage


def _header(offset: int, value: bytes):
    def damage(path):
        with open(path, "r+b") as f:
            f.seek(offset)
            f.write(value)

    return damage


def _drop(table: str):
    def damage(path):
        with sqlite3.connect(path) as conn:
            conn.execute("pragma writable_schema = on")  # as a tool that knows nothing of wsdb would
            conn.execute(f"drop table {table}")
        with sqlite3.connect(path) as conn:
            conn.execute("pragma wal_checkpoint(truncate)")

    return damage


def _wal_garbage(path):
    with open(f"{path}-wal", "wb") as f:
        f.write(b"\x37\x7f\x06\x82" + random.Random(1).randbytes(3 * PAGE))


def damages(pages: dict[str, int], size: int) -> dict:
    last = size // PAGE
    return {
        "class-rows-root-header": _overwrite(pages["class_rows"], "header"),
        "class-rows-root-random": _overwrite(pages["class_rows"], "random"),
        "class-rows-middle-zero": _overwrite(last // 2, "zero"),
        "class-rows-middle-random": _overwrite(last // 2 + 1, "random"),
        "last-page-random": _overwrite(last, "random"),
        "builds-root-random": _overwrite(pages["builds"], "random"),
        "levels-root-header": _overwrite(pages["levels"], "header"),
        "schema-page-random": _overwrite(1, "random"),
        "version-page-zero": _overwrite(pages["alembic_version"], "zero"),
        "cut-at-a-page": _cut(0.5, True),
        "cut-mid-page": _cut(0.7, False),
        "cut-to-one-page": _cut(1 / last, True),
        "page-size-impossible": _header(16, b"\x00\x03"),
        "reserved-bytes-impossible": _header(20, b"\xf0"),
        "class-rows-dropped": _drop("class_rows"),
        "levels-dropped": _drop("levels"),
        "wal-garbage": _wal_garbage,
    }


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """A 4x4 three-colour database and each command's output on it."""
    folder = tmp_path_factory.mktemp("damage")
    path = folder / "clean.sqlite"
    wsdb.build(N, C, db=path)
    assert invoke(["bounds", "compute", "--n", N, "--c", C, "-q"], path).exit_code == 0
    with sqlite3.connect(path) as conn:
        conn.execute("pragma wal_checkpoint(truncate)")
    outputs = {}
    for name, words in COMMANDS.items():
        copy = folder / f"clean-{name}.sqlite"
        shutil.copy(path, copy)
        res = invoke(words, copy)
        assert res.exit_code == 0, (name, res.stderr)
        outputs[name] = res.stdout
    return path, outputs


def invoke(words, db):
    return CliRunner().invoke(
        main, [str(w) for w in words] + ["--db", str(db)], input="\n".join(STATES) + "\n", catch_exceptions=False
    )


def _sha(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else ""


def test_the_sweep_damages_what_it_says(clean):
    """Every damage is real: SQLite's own integrity check fails on each
    (or cannot open the file), except the log of garbage, which SQLite
    must ignore (its frames' checksums do not match)."""
    path, _ = clean
    for name, damage in damages(_pages(path), os.path.getsize(path)).items():
        copy = path.with_name(f"check-{name}.sqlite")
        shutil.copy(path, copy)
        damage(copy)
        try:
            with sqlite3.connect(f"file:{copy}?mode=ro", uri=True) as conn:
                verdict = conn.execute("pragma integrity_check").fetchall()
        except sqlite3.DatabaseError as e:
            verdict = [(str(e),)]
        assert (verdict == [("ok",)]) == (name == "wal-garbage" or name.endswith("dropped")), (name, verdict)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_answers_right_or_says_the_damage_in_one_line(clean, tmp_path, command):
    path, outputs = clean
    said = []
    for name, damage in damages(_pages(path), os.path.getsize(path)).items():
        copy = tmp_path / f"{name}.sqlite"
        shutil.copy(path, copy)
        damage(copy)
        before = _sha(copy)
        res = invoke(COMMANDS[command], copy)
        assert "Traceback" not in res.stderr, (name, res.stderr)
        lines = res.stderr.strip().splitlines()
        if res.exit_code == 0:
            if command not in UNSTABLE:
                assert res.stdout == outputs[command], (name, "a wrong answer")
        elif command == "verify" and not lines:  # verify's own report of the damage, on stdout
            assert res.exit_code == 1 and "FAIL" in res.stdout.upper(), (name, res.stdout)
        else:
            assert res.exit_code == 1 and len(lines) == 1 and lines[0].startswith("wsdb: "), (name, res.stderr)
            said.append(lines[0])
        if res.exit_code != 0 or command not in WRITES:  # a write that succeeded changed it, as it should
            assert _sha(copy) == before, (name, "the damaged file was changed")
        for f in tmp_path.glob(f"{name}.sqlite*"):
            shutil.rmtree(f) if f.is_dir() else f.unlink()
    assert all("sqlite" in line.lower() for line in said), said  # each names the database and SQLite's words


def test_every_endpoint_answers_right_or_500_in_one_line(clean, tmp_path):
    from fastapi.testclient import TestClient

    from wsdb.web.app import create_app

    path, _ = clean
    calls = [
        ("post", "/api/lookup", {"state": STATES[0]}),
        ("post", "/api/solve", {"state": STATES[1], "time_limit": 1}),
        ("get", f"/api/random?n={N}&c={C}&depth=6&seed=1", None),
        ("get", "/api/info", None),
    ]
    copy = tmp_path / "api-clean.sqlite"
    shutil.copy(path, copy)
    with TestClient(create_app(copy)) as client:
        right = [getattr(client, verb)(url, **({"json": body} if body else {})) for verb, url, body in calls]
    assert [r.status_code for r in right] == [200] * len(calls), [r.text for r in right]
    for name, damage in damages(_pages(path), os.path.getsize(path)).items():
        copy = tmp_path / f"api-{name}.sqlite"
        shutil.copy(path, copy)
        damage(copy)
        before = _sha(copy)
        with TestClient(create_app(copy), raise_server_exceptions=True) as client:
            for (verb, url, body), want in zip(calls, right):
                r = getattr(client, verb)(url, **({"json": body} if body else {}))
                if r.status_code == 200:
                    if not url.startswith(("/api/solve", "/api/info")):
                        assert r.json() == want.json(), (name, url, "a wrong answer")
                else:
                    detail = r.json()["detail"]
                    assert r.status_code == 500 and "\n" not in detail and detail, (name, url, r.text)
        assert _sha(copy) == before, name
