"""The numbering of states by their place in the group
(wsdb/engine/ranking.py, wsdb/engine/rank_kernels.py)."""

import math

import numpy as np
import pytest

from wsdb.engine.ranking import Ranking
from wsdb.errors import WsdbError
from wsdb.puzzle.blocks import parity
from wsdb.puzzle.catalog import get_puzzle

DISTINCT = [
    ("rubiks-slide-hard", 2),
    ("rubiks-slide-hard", 3),
    ("rubiks-slide-hard", 4),
    ("rubiks-slide-easy", 4),
    ("rubeish", 3),
    ("rotate2x2", 3),
]


@pytest.mark.parametrize("name, n", DISTINCT)
def test_unrank_then_rank_is_the_identity(name, n):
    p = get_puzzle(name, n)
    ranking = Ranking.of(p)
    rng = np.random.default_rng(11)
    idx = np.unique(np.concatenate([[0, ranking.size - 1], rng.integers(0, ranking.size, 3000)]))
    states = ranking.unrank(idx)
    # each is an arrangement of the goal's pieces, and the indices are distinct states
    assert (np.sort(states, axis=1) == np.sort(p.solved[0])).all()
    assert len({s.tobytes() for s in states}) == len(idx)
    assert (ranking.rank(states) == idx).all()
    if ranking.halve:
        home = ranking.home[states]
        assert all(parity(h) == 0 for h in home)


@pytest.mark.parametrize("name, n", DISTINCT)
def test_move_tables_agree_with_moving_the_cells(name, n):
    # the kernels find a neighbour's index by table lookups on the index's
    # digits; moving the unranked state's cells and ranking it must agree
    p = get_puzzle(name, n)
    ranking = Ranking.of(p)
    idx = np.random.default_rng(3).integers(0, ranking.size, 2000)
    states = ranking.unrank(idx)
    by_tables = ranking.neighbours(idx)
    for m in range(len(p.moves)):
        assert (by_tables[:, m] == ranking.rank(states[:, p.moves[m]])).all()


def test_states_laid_out_either_way_share_one_compile():
    # numba compiles a kernel once per array layout; rank and the move
    # tables hand their kernels C-ordered arrays whatever they were given
    from wsdb.engine import rank_kernels as rk

    ranking = Ranking.of(get_puzzle("rubiks-slide-hard", 2))
    states = ranking.unrank(np.arange(min(50, ranking.size)))
    want = ranking.rank(states)
    compiled = list(rk.rank_many.signatures)
    assert np.array_equal(ranking.rank(np.asfortranarray(states)), want)
    assert list(rk.rank_many.signatures) == compiled
    assert all(t.flags.c_contiguous for t in ranking.tables)


@pytest.mark.parametrize("name, n", DISTINCT)
def test_random_walks_stay_in_the_table(name, n):
    p = get_puzzle(name, n)
    ranking = Ranking.of(p)
    rng = np.random.default_rng(8)
    state = p.solved[0].copy()
    seen = []
    for m in rng.integers(0, len(p.moves), 300):
        state = state[p.moves[m]]
        seen.append(state)
    r = ranking.rank(np.array(seen))
    assert ((0 <= r) & (r < ranking.size)).all()
    assert (ranking.unrank(r) == np.array(seen)).all()


def test_the_goal_of_a_relabelled_puzzle_ranks_like_any_state():
    # a goal that is not 1..n^2 in reading order: labels map to home cells
    p = get_puzzle("rubiks-slide-hard", 3, goal="918/273/645")
    ranking = Ranking.of(p)
    assert (ranking.unrank(ranking.rank(p.solved[0])) == p.solved[0]).all()


def test_coloured_goals_and_blockless_boards_are_refused():
    with pytest.raises(WsdbError, match="distinct pieces"):
        Ranking.of(get_puzzle("rubeish", 3, goal="111/222/333"))
    with pytest.raises(WsdbError, match="no blocks smaller than 16"):
        Ranking.of(get_puzzle("rubeish", 4))
    with pytest.raises(WsdbError, match="out of range"):
        Ranking.of(get_puzzle("rubeish", 3)).unrank([math.factorial(9)])
