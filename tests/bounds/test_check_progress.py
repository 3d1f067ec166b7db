"""How far each kept moves-off check got (wsdb/stats/check_progress.py,
`wsdb bounds checks`): read back from the slices of real checks of the
bound by merging colours on 4x4 three colours, against the witness each
run stored."""

import json
import shutil
import time

import numpy as np
import pytest

from wsdb.db.store import Store
from wsdb.bounds.check_progress import kept_checks, kept_solutions
from wsdb.bounds.merging import by_merging


@pytest.fixture
def db(db4, tmp_path):
    """A copy of the 4x4 database, to keep slices in."""
    copy = tmp_path / "w.sqlite"
    shutil.copy(db4, copy)
    return copy


def test_each_check_kept_reads_back_as_its_witness_says(db):
    assert kept_checks(Store.open(db)) == []
    b = by_merging(Store.open(db, write=True), 4, 3, "12", tries=1, off=2, solve_left=0)
    kept = kept_checks(Store.open(db), 4, 3)
    made = b.witness["checks"]
    assert len(kept) == len(made) == 2 and made[1].get("again")  # the deepest level, then again a move looser
    for k, ch in zip(sorted(kept, key=lambda k: k.at_most), made):
        assert (k.merge, k.level, k.at_most, k.states, k.unavoidable) == (
            "12",
            ch["level"],
            ch["at_most"],
            ch["states"],
            ch["unavoidable"],
        )
        assert (
            k.done == k.slices > 0
            and k.seconds >= 0
            and f"tries 1, detours 1, paths 1, {ch['states']} states" in k.scheme
        )
    assert kept_checks(Store.open(db), 6, 3) == []


def test_the_liftings_solved_read_back_as_the_witness_lists_them(db, run):
    b = by_merging(Store.open(db, write=True), 4, 3, "12", tries=2, solve_left=1000)
    solved = b.witness["checks"][0]["solved"]
    [kept] = kept_solutions(Store.open(db), 4, 3)
    assert (kept.n, kept.c, kept.solved, kept.longest) == (4, 3, len(solved), max(s["length"] for s in solved))
    assert kept_solutions(Store.open(db), 6, 3) == []
    rows = [json.loads(line) for line in run("bounds", "checks", "--db", db, "--json").stdout.splitlines()]
    assert [r["solved"] for r in rows if "solved" in r] == [len(solved)]
    assert (
        f"4x4 3 colours: {len(solved)} ways to split solved one by one and kept"
        in run("bounds", "checks", "--db", db).output
    )


def _check_row(out):
    """The one check's line of `wsdb bounds checks --json` (a line of
    liftings solved may follow it)."""
    (row,) = [r for r in map(json.loads, out.splitlines()) if "merge" in r]
    return row


def test_the_commands_say_what_is_kept(db, run, monkeypatch):
    from wsdb.bounds import lifting

    res = run("bounds", "checks", "--db", db)
    assert res.exit_code == 2 and "no check kept" in res.stderr and len(res.stderr.strip().splitlines()) == 1
    real, calls = lifting.unavoidable, []

    def stopping(self, *args):
        if len(calls) == 2:
            raise KeyboardInterrupt  # a Ctrl-C part-way through the first check
        calls.append(1)
        return real(self, *args)

    assert run("bounds", "compute", "--n", 4, "--c", 3, "--db", db, "-q").exit_code == 0  # some bounds to list
    monkeypatch.setattr(lifting, "unavoidable", stopping)
    res = run("bounds", "compute", "--n", 4, "--c", 3, "--merge", "12", "--tries", 1, "--db", db, "-q")
    assert res.exit_code != 0
    monkeypatch.setattr(lifting, "unavoidable", real)
    row = _check_row(run("bounds", "checks", "--db", db, "--json").stdout)
    assert row["merge"] == "12" and row["done"] == 2 < row["slices"]
    text = run("bounds", "checks", "--db", db).output
    assert f"level {row['level']} within {row['at_most']}: 2 of {row['slices']} slices kept" in text
    assert "1 moves-off check part-way: `wsdb bounds checks`" in run("bounds", "--db", db).output
    # the same command goes on from there, and then nothing is part-way
    assert run("bounds", "compute", "--n", 4, "--c", 3, "--merge", "12", "--tries", 1, "--db", db, "-q").exit_code == 0
    row = _check_row(run("bounds", "checks", "--db", db, "--json").stdout)
    assert row["done"] == row["slices"] and "part-way" not in run("bounds", "--db", db).output


def test_the_time_left_is_at_the_median_slices_pace(db):
    # a slice timed across a pause (a stopped process, other work) must not
    # make the estimate hours: the median slice's seconds set the pace
    import sqlite3
    import statistics

    from wsdb.notices import duration

    by_merging(Store.open(db, write=True), 4, 3, "12", tries=1, off=1, solve_left=0)
    with sqlite3.connect(db) as conn:
        (slices,) = conn.execute("select slices from check_slices").fetchone()
        conn.execute("delete from check_slices where slice >= ?", (slices // 2,))
        conn.execute("update check_slices set seconds = 86400 where slice = 0")
        conn.execute("update check_slices set seconds = 0.5 * slice where slice > 0")
        kept = [s for (s,) in conn.execute("select seconds from check_slices")]
    [k] = kept_checks(Store.open(db), 4, 3)
    assert k.done == len(kept) == slices // 2 >= 3 and k.median_seconds == statistics.median(kept)
    assert f"about {duration(statistics.median(kept) * (slices - k.done))} left at their pace" in k.text()
    assert "h left" not in k.text()


def test_a_resumed_check_tells_its_pace_from_the_slices_it_checks(db):
    # slices read back from an earlier run take no time: the time left is
    # reckoned from the slices this run checks, not from the states done
    from wsdb.bounds import merging

    cells = np.arange(1000, dtype=np.uint64)
    check = dict(n=4, c=3, merge="12", level=5, at_most=9, scheme="a test's")

    def slow(part, tries, shortest):
        time.sleep(0.001)
        return np.zeros(len(part), dtype=np.int64), np.ones(len(part), dtype=np.int64)

    def stopping(part, tries, shortest):
        if len(heard) == 40:
            raise KeyboardInterrupt
        return slow(part, tries, shortest)

    heard = []

    def told(*said):
        heard.append(said)

    with pytest.raises(KeyboardInterrupt):
        merging._in_slices(cells, stopping, 1, merging.Kept(Store.open(db, write=True), check), told)
    heard.clear()
    merging._in_slices(cells, slow, 1, merging.Kept(Store.open(db, write=True), check), told)
    assert [h[:2] for h in heard] == [(10 * (i + 1), 1000) for i in range(100)]
    assert all(h[2:] == (0.0, 0) for h in heard[:40])  # read back
    assert [h[3] for h in heard[40:]] == [10 * (i + 1) for i in range(60)] and heard[-1][2] >= 0.06
