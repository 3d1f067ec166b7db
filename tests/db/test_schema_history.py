"""`wsdb db history|current|upgrade` (wsdb/db/schema_history.py): the
migrations in order, a file's revision read without touching it, and an
upgrade by hand of a database made by the first schema (tests/data)."""

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from wsdb.db.migrations import HEAD
from wsdb.db.schema_history import current, history, upgrade

OLD = Path(__file__).resolve().parents[1] / "data" / "schema-0001.sqlite"


def test_history_runs_from_the_first_revision_to_the_head():
    revs = history()
    assert revs[0]["revision"] == "0001" and revs[0]["down_revision"] is None
    assert revs[-1]["revision"] == HEAD and revs[-1]["head"] and sum(r["head"] for r in revs) == 1
    assert all(b["down_revision"] == a["revision"] for a, b in zip(revs, revs[1:]))
    assert all(r["message"] for r in revs)


@pytest.mark.reads_files
def test_current_reads_without_changing_and_upgrade_applies_the_rest(tmp_path, run):
    db = tmp_path / "old.sqlite"
    shutil.copy(OLD, db)
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    now = current(db)
    assert now["revision"] == "0001" and not now["up_to_date"]
    assert now["pending"] == [r["revision"] for r in history()][1:]
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before  # only read
    res = run("db", "upgrade", "--db", db, "--json")
    assert res.exit_code == 0, res.output
    done = json.loads(res.stdout)
    assert done["before"] == "0001" and done["after"] == HEAD and done["applied"] == now["pending"]
    assert current(db)["up_to_date"] and upgrade(db)["applied"] == []


def test_a_missing_or_foreign_file_is_one_line(tmp_path, run):
    res = run("db", "current", "--db", tmp_path / "none.sqlite")
    assert res.exit_code == 2 and "no database" in res.stderr and not (tmp_path / "none.sqlite").exists()
    bad = tmp_path / "bad.sqlite"
    bad.write_text("not a database")
    res = run("db", "current", "--db", bad)
    assert res.exit_code == 2 and len(res.stderr.strip().splitlines()) == 1 and bad.read_text() == "not a database"
