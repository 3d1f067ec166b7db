"""Repairs (wsdb/solver/repair.py): a near-solved state's cycle, solved by
meet in the middle with a partial tree, is solved at its true distance, and
its sequence fixes the cycle in any state without undoing other cells."""

import numpy as np
import pytest

import wsdb
import wsdb.solver.methods as methods_module
from wsdb.puzzle import format_state, random_states, wrapslide
from wsdb.solver import effort
from wsdb.solver.exchange import nearest_goal
from wsdb.solver.meet import solve_near
from wsdb.solver.repair import repair
from wsdb.solver.settings import REPAIR_LADDER as LADDER

from ..conftest import PARTIAL_DEPTH as DEPTH


@pytest.fixture
def partial(partial4):
    return partial4


def _swapped(goal: np.ndarray, rng: np.random.Generator, pairs: int) -> np.ndarray:
    """``goal`` with ``pairs`` disjoint pairs of differently coloured cells swapped."""
    x = goal.copy()
    done: set[int] = set()
    while len(done) < 2 * pairs:
        i, j = (int(v) for v in rng.integers(0, len(x), 2))
        if x[i] != x[j] and not {i, j} & done:
            x[[i, j]] = x[[j, i]]
            done |= {i, j}
    return x


def test_a_swapped_pair_is_solved_at_its_true_distance(partial, exact_distance):
    _, store, guide = partial
    distance = exact_distance(4)
    p = guide.puzzle
    rng = np.random.default_rng(5)
    reached = 0
    for _ in range(30):
        v = _swapped(p.solved[int(rng.integers(len(p.solved)))], rng, 1)
        seq = solve_near(guide, store, v, effort.NEVER, LADDER[-1][0])
        if seq is None:  # beyond the tree plus the forward levels: must really be far
            assert distance(v) > DEPTH + 3
            continue
        reached += 1
        assert p.is_solved(p.apply(v, seq))
        assert len(seq) == distance(v)
    assert reached >= 20


def test_a_cycles_sequence_fixes_it_in_any_state(partial):
    # the lemma the module rests on: cells outside the cycle keep their standing
    _, store, guide = partial
    p = guide.puzzle
    rng = np.random.default_rng(8)
    checked = 0
    for _ in range(40):
        goal = p.solved[int(rng.integers(len(p.solved)))]
        x = _swapped(goal, rng, 3)
        wrong = np.flatnonzero(x != goal)
        i = int(wrong[0])
        j = int(next(k for k in wrong if x[k] == goal[i] and goal[k] == x[i]))
        v = goal.copy()
        v[[i, j]] = x[[i, j]]
        seq = solve_near(guide, store, v, effort.NEVER, LADDER[-1][0])
        if seq is None:
            continue
        checked += 1
        y = p.apply(x, seq)
        assert (y != nearest_goal(p, y)).sum() <= len(wrong) - 2
    assert checked >= 20


def test_repair_solves_random_states(partial):
    _, store, guide = partial
    p = guide.puzzle
    rng = np.random.default_rng(0)
    for cells in random_states(p, 8, seed=3):
        moves, reached, _ = repair(guide, store, cells, effort.NEVER, rng)
        assert np.array_equal(p.apply(cells, moves), reached)
        assert p.is_solved(reached)


def test_repair_stops_at_its_deadline(partial):
    _, store, guide = partial
    p = guide.puzzle
    cells = random_states(p, 1, seed=4)[0]
    moves, reached, exchanges = repair(guide, store, cells, -1.0, np.random.default_rng(0))
    assert moves == [] and exchanges == 0 and np.array_equal(reached, cells)


def test_a_search_that_stalls_is_finished_by_repairs(partial, exact_distance, monkeypatch):
    # the beam finds nothing (as on 8x8 when it stalls); repairs finish from its waypoint
    db, _, _ = partial
    monkeypatch.setattr(methods_module, "beam_search", lambda guide, cells, width, deadline: (None, [(cells, [])]))
    distance = exact_distance(4)
    p = wrapslide(4, 4)
    far = [x for x in random_states(p, 40, seed=12) if distance(x) > DEPTH][:5]
    for cells in far:
        sol = wsdb.solve(format_state(cells), db=db, method="beam", time_limit=30)
        assert "+repair" in sol.method and "repairs" in sol.note
        assert p.is_solved(p.apply(cells, sol.moves))
        assert sol.lower_bound <= distance(cells) <= sol.length
