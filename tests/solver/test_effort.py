"""The budget counted in work (wsdb/solver/effort.py): the same state and
effort give the same moves at any load and on any number of threads, and
a time limit only caps."""

import contextlib
import json
import os
import subprocess
import sys
import time

import pytest

import wsdb
from wsdb.puzzle import format_states, parse_state, random_states, wrapslide
from wsdb.solver import effort
from wsdb.solver.settings import NODE_COSTS

#: small budgets, so that they end the searches (millions of nodes)
CASES = [("auto", 0.05), ("beam", 0.003), ("thesis", 0.02), ("optimal", 0.05)]


def test_meter_counts_work_and_points():
    with effort.metered() as m:
        assert effort.spent() == 0 and not effort.past(0)
        effort.charge("child", 10)
        effort.charge("probe", 3)
        assert m.spent == effort.spent() == 10 * NODE_COSTS["child"] + 3 * NODE_COSTS["probe"]
        assert m.counts == {"child": 10, "probe": 3}
        assert effort.past(1) and not effort.past(10_000)
        assert effort.left(10_000) == 10_000 - m.spent and effort.left(0) == 0
        assert effort.within(10_000, 5) == m.spent + 5 and effort.within(1, 5) == 1
    assert effort.spent() != m.spent or m.spent == 0  # outside the block: another meter


def test_a_cap_stops_every_point_and_says_so():
    with effort.metered(cap_seconds=0.01) as m:
        assert not effort.past(effort.NEVER)
        time.sleep(0.02)
        assert effort.past(effort.NEVER) and effort.left(effort.NEVER) == 0 and m.capped


def _states(count=6):
    return format_states(random_states(wrapslide(4, 4), count, 404), 4).tolist()


def _answers(db, states, method, amount):
    return [
        (s.moves, s.lower_bound, s.effort, s.timed_out)
        for s in wsdb.solve_many(states, db=db, method=method, effort=amount)
    ]


ONE_THREAD = """
import json, sys
import wsdb
states, db, cases = json.loads(sys.argv[1])
out = {m: [[s.moves, s.lower_bound, s.effort, s.timed_out]
           for s in wsdb.solve_many(states, db=db, method=m, effort=e)] for m, e in cases}
print(json.dumps(out))
"""


#: a process burning a core until it is killed or its parent ends (a run killed before it could stop
#: its hogs leaves none behind)
HOG = "import os\np = os.getppid()\nwhile os.getppid() == p:\n    for _ in range(200_000): pass"


@contextlib.contextmanager
def cpu_hogs():
    """Two processes burning both cores inside the block."""
    hogs = [subprocess.Popen([sys.executable, "-c", HOG]) for _ in range(2)]
    try:
        yield
    finally:
        for h in hogs:
            h.kill()
            h.wait()


def _budgeted_runs(db, states):
    return {m: [list(a) for a in _answers(db, states, m, e)] for m, e in CASES}


def test_same_answers_under_load_and_on_one_thread(partial4):
    db, _, _ = partial4
    states = _states()
    _budgeted_runs(db, states[:1])  # the kernels compiled first: under load that takes a minute
    with cpu_hogs():
        loaded = _budgeted_runs(db, states)  # both cores busy with the hogs
    env = dict(os.environ, NUMBA_NUM_THREADS="1")
    out = subprocess.run(
        [sys.executable, "-c", ONE_THREAD, json.dumps([states, str(db), CASES])],
        capture_output=True,
        text=True,
        env=env,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    alone = json.loads(out.stdout.splitlines()[-1])
    assert alone == loaded
    # the budgets did end searches, so the comparison is not of searches that simply finished
    assert all(any(a[3] for a in loaded[m]) for m in ("auto", "beam", "thesis"))


def test_more_effort_is_reported_and_the_answer_checks(partial4):
    db, _, _ = partial4
    for sol in wsdb.solve_many(_states(3), db=db, method="beam", effort=0.5):
        assert sol.effort > 0 and sum(sol.work.values()) > 0 and not sol.capped
        puzzle, cells = parse_state(sol.state)
        assert puzzle.is_solved(puzzle.apply(cells, sol.moves))


def test_a_time_limit_that_cuts_is_said(partial4):
    db, _, _ = partial4
    six = format_states(random_states(wrapslide(6, 4), 1, 5), 6)[0]  # no 6x6 tree here: the search runs on
    sol = wsdb.solve(six, db=db, method="thesis", effort=1000, time_limit=0.2)
    assert sol.capped and sol.timed_out and "time limit" in sol.note and sol.effort < 1000


@pytest.mark.parametrize("bad", [0, -1, float("nan"), 1e12])
def test_bad_effort_is_one_line(partial4, bad):
    db, _, _ = partial4
    with pytest.raises(wsdb.WsdbError, match="effort"):
        wsdb.solve(_states(1)[0], db=db, effort=bad)
