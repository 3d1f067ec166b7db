"""Solver runs as data (wsdb/solver/evaluate.py, `wsdb eval`): one stored row
per state, the states of `wsdb random`, reproducible, and an interrupted run
keeps what it finished."""

import shutil
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

import wsdb
from wsdb.db.store import Store
from wsdb.solver.evaluate import draw, evaluate


@pytest.fixture
def db(db4, tmp_path):
    """A copy of the 4x4 database: runs write into it."""
    path = tmp_path / "runs.sqlite"
    shutil.copy(db4, path)
    return path


def rows(db, run_id):
    with sqlite3.connect(db) as conn:
        conn.row_factory = sqlite3.Row
        return [dict(r) for r in conn.execute("select * from solves where run_id = ? order by idx", (run_id,))]


def test_a_run_stores_the_states_of_wsdb_random_and_their_real_answers(run, db):
    res = run("eval", "--n", 4, "--c", 3, "--count", 12, "--seed", 5, "--db", db)
    assert res.exit_code == 0, res.output
    drawn = run("random", "--n", 4, "--c", 3, "--count", 12, "--seed", 5).output.split()
    stored = rows(db, 1)
    assert [r["state"] for r in stored] == drawn
    for r in stored:
        sol = wsdb.solve(r["state"], db=db)
        assert r["length"] == sol.length == len(r["moves"].split())
        p = wsdb.wrapslide(4, 3)
        assert p.is_solved(p.apply(wsdb.parse_state(r["state"])[1], r["moves"].split()))
        # the complete tree is there: every distance is known and every answer optimal
        assert r["exact"] == wsdb.lookup(r["state"], db=db).distance == r["length"] == r["lower_bound"]
        assert r["optimal"] == 1 and r["timed_out"] == 0
    with sqlite3.connect(db) as conn:
        n, c, method, count, status, cores = conn.execute(
            "select n, c, method, count, status, cores from solve_runs where run_id = 1"
        ).fetchone()
    assert (n, c, method, count, status) == (4, 3, "auto", 12, "done") and cores >= 1


def test_the_same_seed_gives_the_same_states_and_lengths(db):
    first = evaluate(4, 4, 8, seed=11, method="optimal", db=db)
    again = evaluate(4, 4, 8, seed=11, method="optimal", db=db)
    a, b = rows(db, first.run_id), rows(db, again.run_id)
    assert [(r["state"], r["length"]) for r in a] == [(r["state"], r["length"]) for r in b]
    assert first.run_id != again.run_id and len(a) == 8


def test_an_interrupted_run_keeps_its_finished_rows(db):
    seen = []

    def stop_after_three(sol):
        seen.append(sol)
        if len(seen) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        evaluate(4, 4, 10, seed=3, method="optimal", db=db, on_solved=stop_after_three)
    kept = rows(db, 1)
    assert [r["state"] for r in kept] == [s.state for s in seen]
    with sqlite3.connect(db) as conn:
        assert conn.execute("select status, finished_at is not null from solve_runs").fetchone() == ("interrupted", 1)
    whole = evaluate(4, 4, 10, seed=3, method="optimal", db=db)
    assert [(r["state"], r["length"]) for r in rows(db, whole.run_id)][:3] == [(r["state"], r["length"]) for r in kept]


@pytest.mark.parametrize(
    "args,says",
    [
        (["--n", 5, "--c", 2], "n"),
        (["--n", 4, "--c", 7], "colour"),
        (["--n", 4, "--c", 2, "--count", 0], "count"),
        (["--n", 4, "--c", 2, "--method", "magic"], "method"),
        (["--n", 4, "--c", 2, "--time-limit", -1], "time limit"),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(run, db, args, says):
    res = run("eval", *args, "--seed", 1, "--db", db)
    assert res.exit_code == 2
    assert len(res.stderr.strip().splitlines()) == 1 and says in res.stderr.lower()
    with sqlite3.connect(db) as conn:
        assert conn.execute("select count(*) from solve_runs").fetchone() == (0,)


def test_a_named_database_must_exist(run, tmp_path):
    res = run("eval", "--n", 4, "--c", 2, "--seed", 1, "--db", tmp_path / "typo.sqlite")
    assert res.exit_code == 2 and "no database" in res.stderr and not (tmp_path / "typo.sqlite").exists()


def eval_with_rows_stored(db, rows: int) -> subprocess.Popen:
    """`wsdb eval` of 500 states in a process of its own, once it has stored ``rows``."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "wsdb",
            "eval",
            "--n",
            "4",
            "--c",
            "4",
            "--count",
            "500",
            "--seed",
            "2",
            "--method",
            "thesis",
            "--db",
            str(db),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    stored = 0
    deadline = time.monotonic() + 240
    while stored < rows and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.2)
        with sqlite3.connect(db) as conn:
            stored = conn.execute("select count(*) from solves").fetchone()[0]
    return proc


@pytest.mark.integration
def test_ctrl_c_on_the_command_keeps_the_finished_rows(db):
    proc = eval_with_rows_stored(db, 3)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130 and "interrupted" in err and "Traceback" not in err
    with sqlite3.connect(db) as conn:
        (status,) = conn.execute("select status from solve_runs").fetchone()
        kept = conn.execute("select idx, state from solves order by idx").fetchall()
    assert status == "interrupted" and 3 <= len(kept) < 500
    assert [s for _, s in kept] == draw(4, 4, len(kept), 2)


@pytest.mark.integration
def test_a_run_killed_with_sigkill_is_marked_interrupted_at_the_next_write(db):
    # a killed process cannot say so; the next writer sees its process is gone
    proc = eval_with_rows_stored(db, 3)
    proc.kill()
    proc.communicate(timeout=60)
    with sqlite3.connect(db) as conn:
        assert conn.execute("select status from solve_runs").fetchone() == ("running",)
    Store.open(db)  # reading changes nothing
    with sqlite3.connect(db) as conn:
        assert conn.execute("select status from solve_runs").fetchone() == ("running",)
    Store.open(db, write=True)
    with sqlite3.connect(db) as conn:
        status, runner = conn.execute("select status, runner from solve_runs").fetchone()
        kept = conn.execute("select count(*) from solves").fetchone()[0]
    assert status == "interrupted" and runner.endswith(f":{proc.pid}") and kept >= 3


def test_a_run_stores_its_effort_and_runs_of_one_effort_answer_alike(db):
    """The budget is work, not seconds: two runs at the same effort store
    the same moves, state by state, and the effort is in the run's settings."""
    import json

    first = evaluate(4, 4, 6, seed=3, method="beam", db=db, effort=0.004)
    again = evaluate(4, 4, 6, seed=3, method="beam", db=db, effort=0.004)
    assert [r["moves"] for r in rows(db, first.run_id)] == [r["moves"] for r in rows(db, again.run_id)]
    with sqlite3.connect(db) as conn:
        params = json.loads(
            conn.execute("select params from solve_runs where run_id = ?", (first.run_id,)).fetchone()[0]
        )
    assert params["effort"] == 0.004 and params["time_limit"] is None and params["node_costs"]["child"] == 1
    from wsdb.stats import solves

    assert solves.run_summaries(db).set_index("run_id").loc[first.run_id, "effort"] == 0.004
