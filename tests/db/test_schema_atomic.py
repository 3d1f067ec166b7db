"""Making and upgrading the schema is atomic (wsdb/db/connection.py,
wsdb/db/store.py): a process killed with SIGKILL at any moment of it leaves
the file at the old schema or the new one, never between, so it opens
afterwards; two first builds into one new file both succeed."""

import random
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

OLD = Path(__file__).resolve().parents[1] / "data" / "schema-0001.sqlite"
pytestmark = pytest.mark.integration


def wsdb_cli(*args, timeout=300):
    return subprocess.run(
        [sys.executable, "-m", "wsdb", *map(str, args)], capture_output=True, text=True, timeout=timeout
    )


def killed_at_random(args, seed: int) -> None:
    """Start `wsdb ARGS` and SIGKILL it after a random moment of its first second."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "wsdb", *map(str, args)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    time.sleep(random.Random(seed).uniform(0.25, 1.5))
    proc.kill()
    proc.wait()


#: kill times tried in the default run; the slow ones below try the rest
KILLS = 1


@pytest.mark.parametrize("seed", range(KILLS))
def test_an_upgrade_killed_anywhere_leaves_a_file_that_opens(tmp_path, seed):
    db = tmp_path / "old.sqlite"
    shutil.copy(OLD, db)
    with sqlite3.connect(OLD) as conn:
        before = conn.execute("select count(*) from classes").fetchone()[0]
    killed_at_random(["info", "--db", db], seed)
    res = wsdb_cli("info", "--db", db)
    assert res.returncode == 0, res.stderr
    with sqlite3.connect(db) as conn:
        assert conn.execute("select count(*) from class_rows").fetchone()[0] == before


@pytest.mark.parametrize("seed", range(KILLS))
def test_a_new_file_killed_while_its_schema_is_made_builds_afterwards(tmp_path, seed):
    db = tmp_path / "new.sqlite"
    killed_at_random(["build", "--n", 4, "--c", 2, "--db", db, "-q"], seed)
    res = wsdb_cli("build", "--n", 4, "--c", 2, "--db", db, "-q")
    assert res.returncode == 0, res.stderr
    assert wsdb_cli("verify", "--n", 4, "--c", 2, "--db", db).returncode == 0


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(KILLS, 45))
def test_many_more_kills_during_an_upgrade(tmp_path, seed):
    test_an_upgrade_killed_anywhere_leaves_a_file_that_opens(tmp_path, seed)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(KILLS, 45))
def test_many_more_kills_while_a_schema_is_made(tmp_path, seed):
    test_a_new_file_killed_while_its_schema_is_made_builds_afterwards(tmp_path, seed)


def test_two_first_builds_into_one_new_file_both_succeed(tmp_path):
    db = tmp_path / "shared.sqlite"
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "wsdb", "build", "--n", "4", "--c", str(c), "--db", str(db), "-q"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for c in (2, 3)
    ]
    results = [(p.wait(timeout=300), p.stderr.read()) for p in procs]
    assert [code for code, _ in results] == [0, 0], results
    for c in (2, 3):
        assert wsdb_cli("verify", "--n", 4, "--c", c, "--db", db).returncode == 0
