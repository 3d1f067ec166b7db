"""scripts/frontier_table.py: a bound whose checks resumed from slices kept
by an earlier run counts that run's seconds too, and only those."""

import importlib.util
import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from wsdb.db.store import Store
from wsdb.bounds.arguments import record
from wsdb.bounds.merging import by_merging

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "frontier_table.py"


@pytest.fixture
def script():
    spec = importlib.util.spec_from_file_location("frontier_table", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_resumed_check_counts_the_earlier_runs_seconds(db4, tmp_path, monkeypatch, script):
    import wsdb.bounds.merging as merging
    from wsdb.bounds import lifting

    db = tmp_path / "w.sqlite"
    shutil.copy(db4, db)
    real, calls = lifting.unavoidable, []

    def stopping(self, *args):
        if len(calls) == 3:
            raise KeyboardInterrupt  # a Ctrl-C during the fourth slice
        calls.append(1)
        return real(self, *args)

    monkeypatch.setattr(merging, "FIRST_TRIES", 1)  # one kernel call a slice
    monkeypatch.setattr(lifting, "unavoidable", stopping)
    args = dict(off=1, solve_left=0)  # the default tries: the check passes, and its row is printed
    with pytest.raises(KeyboardInterrupt):
        by_merging(Store.open(db, write=True), 4, 3, "12", **args)
    with sqlite3.connect(db) as conn:  # the earlier run: slices of 1,000 s each, a year ago
        conn.execute("update check_slices set seconds = 1000, checked_at = '2025-11-28T00:00:00+00:00'")
        [(kept,)] = conn.execute("select count(*) from check_slices").fetchall()
    monkeypatch.setattr(lifting, "unavoidable", real)
    store = Store.open(db, write=True)
    b = by_merging(store, 4, 3, "12", **args)
    assert (
        b.witness["checks"][0]["resumed"] == kept > 0
        and b.value == b.witness["phases"][0]["worst"] + b.witness["phases"][1]["worst"] - 1
    )
    record(store, [b])
    [row] = [r for r in store.bound_rows(4, 3) if r["method"] == "phases"]
    assert script._earlier(store, row) == {0: 1000.0 * kept}  # the slices of this run are not counted again
    check = json.loads(row["witness"])["checks"][0]
    lines = script.phase_lines({(4, 3): {"upper": row}}, store)
    assert lines[-1].endswith(
        f"over more than one run, each slice kept as it finished | {check['seconds'] + 1000 * kept:.1f} |"
    )
