"""The search kernels (wsdb/solver/kernels.py) against plain numpy."""
import numpy as np
import pytest

from wsdb.puzzle import random_states, wrapslide
from wsdb.solver.guide import guide_for, quadrant_goals
from wsdb.solver.kernels import gather_bounds, make_children, misfit, score_children


@pytest.mark.parametrize("n,c", [(6, 3), (8, 2), (8, 3), (8, 4)])
def test_misfit_is_the_fewest_cells_to_repaint_into_a_solved_state(n, c):
    p = wrapslide(n, c)
    goals = quadrant_goals(p)
    cells = np.concatenate([random_states(p, 100, seed=2), p.solved,
                            [p.apply(s, [m]) for s in p.solved[:2] for m in range(len(p.moves))]])
    for x in cells:
        hamming = int((p.solved != x).sum(axis=1).min())   # brute force over every solved state
        assert misfit(x, n, goals) == hamming
        assert (hamming == 0) == p.is_solved(x)


def test_make_children_applies_the_named_moves():
    p = wrapslide(6, 4)
    beam = random_states(p, 5, seed=3)
    nm = len(p.moves)
    rows = np.array([0, 7, nm + 3, 4 * nm + nm - 1])
    kids = make_children(beam, p.moves, rows)
    for kid, row in zip(kids, rows):
        assert (kid == beam[row // nm][p.moves[row % nm]]).all()


def test_score_children_prunes_hashes_and_bounds(db4):
    from wsdb.db.store import Store
    p = wrapslide(4, 4)
    guide = guide_for(p, Store.open(db4))
    st = guide.tables
    beam = random_states(p, 3, seed=4)
    last = np.array([4, 0, 3])   # start, after T, after R
    hmax, hsum, hsh = score_children(beam, last, st)
    nm = len(p.moves)
    for s in range(3):
        for m in range(nm):
            row = s * nm + m
            if p.blocked[last[s], p.move_family[m]]:
                assert hmax[row] == -1
                continue
            child = beam[s][p.moves[m]]
            assert (hmax[row], hsum[row]) == tuple(gather_bounds(child, st.gcols, st.table, st.binom))
            assert hsh[row] == np.bitwise_xor.reduce(st.zobrist[np.arange(16), child])
    blocked_rows = [s * nm + m for s in range(3) for m in range(nm) if p.blocked[last[s], p.move_family[m]]]
    assert len(blocked_rows) == 0 + 3 + 6   # nothing at the start; T after T; L and R after R


def test_gather_bounds_largest_and_sum(db4):
    from wsdb.db.store import Store
    from wsdb.solver.kernels import colour_rank
    p = wrapslide(4, 4)
    st = guide_for(p, Store.open(db4)).tables
    for x in random_states(p, 20, seed=5):
        each = [int(st.table[colour_rank(x, col, st.binom)]) for col in st.gcols]
        assert tuple(gather_bounds(x, st.gcols, st.table, st.binom)) == (max(each), sum(each))
