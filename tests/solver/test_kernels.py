"""The search kernels (wsdb/solver/kernels.py) against plain numpy."""

import numpy as np
import pytest

from wsdb.puzzle import random_states, wrapslide
from wsdb.solver.guide import guide_for, quadrant_goals
from wsdb.engine import get_engine
from wsdb.solver.kernels import (
    allowed_children,
    child_key,
    gather_bounds,
    gather_keys,
    make_children,
    misfit,
    pick_children,
    score_children,
)


@pytest.mark.parametrize("n,c", [(6, 3), (8, 2), (8, 3), (8, 4)])
def test_misfit_is_the_fewest_cells_to_repaint_into_a_solved_state(n, c):
    p = wrapslide(n, c)
    goals = quadrant_goals(p)
    cells = np.concatenate(
        [random_states(p, 100, seed=2), p.solved, [p.apply(s, [m]) for s in p.solved[:2] for m in range(len(p.moves))]]
    )
    for x in cells:
        hamming = int((p.solved != x).sum(axis=1).min())  # brute force over every solved state
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


def test_score_children_prunes_and_bounds(db4):
    from wsdb.db.store import Store

    p = wrapslide(4, 4)
    guide = guide_for(p, Store.open(db4))
    st = guide.tables
    beam = random_states(p, 3, seed=4)
    last = np.array([4, 0, 3])  # start, after T, after R
    hmax, key = score_children(beam, last, st, 1 << 62)
    _, cut_key = score_children(beam, last, st, 3)  # children with a bound of 3 or more are left out
    nm = len(p.moves)
    for s in range(3):
        for m in range(nm):
            row = s * nm + m
            if p.blocked[last[s], p.move_family[m]]:
                assert hmax[row] == key[row] == cut_key[row] == -1
                continue
            child = beam[s][p.moves[m]]
            largest, total = gather_bounds(child, st.gcols, st.table, st.binom)
            assert (hmax[row], key[row]) == (largest, total * 64 + largest)
            assert cut_key[row] == (key[row] if largest < 3 else -1)
    blocked_rows = [s * nm + m for s in range(3) for m in range(nm) if p.blocked[last[s], p.move_family[m]]]
    assert len(blocked_rows) == 0 + 3 + 6  # nothing at the start; T after T; L and R after R


def test_misfit_scores_and_allowed_children_follow_the_pruning():
    """Without a gather table (8x8) the beam scores a child by its misfit
    count, read through the move; where the two-colour tree scores the
    children instead, only the pruning is marked."""
    p = wrapslide(8, 3)
    st = guide_for(p, None).tables
    beam = random_states(p, 3, seed=4)
    last = np.array([4, 0, 3])  # start, after T, after R
    hmax, key = score_children(beam, last, st, 30)
    allowed, none = allowed_children(last, st)
    nm = len(p.moves)
    for row in range(3 * nm):
        s, m = divmod(row, nm)
        if p.blocked[last[s], p.move_family[m]]:
            assert hmax[row] == key[row] == allowed[row] == -1
            continue
        h = misfit(beam[s][p.moves[m]], p.n, st.goals)
        assert (hmax[row], key[row], allowed[row]) == (h, child_key(h, h, 30), 0)
    assert (none == -1).all()


def test_gather_keys_are_the_two_colour_keys_of_the_children():
    """Each child's key in the two-colour grid, one per colour of q cells
    (that colour 0, the rest 1), as encoding the child's cells would give."""
    p, two = wrapslide(8, 4), get_engine(8, 2)
    gcols = np.arange(4, dtype=np.uint8)
    beam = random_states(p, 4, seed=6)
    rows = np.arange(0, 4 * len(p.moves), 3)
    _, shift = two.layout.fields()
    keys = gather_keys(beam, rows, p.moves, gcols, shift.astype(np.int64))
    kids = make_children(beam, p.moves, rows)
    assert keys.shape == (4, len(rows), 1)
    for g, col in enumerate(gcols):
        assert (keys[g] == two.encode((kids != col).view(np.uint8))).all()


def _child_hashes(beam, p, zobrist):
    """Every child's Zobrist hash, by row (s*M + m), by plain numpy."""
    kids = beam[:, p.moves].reshape(-1, beam.shape[1])
    return np.bitwise_xor.reduce(zobrist[np.arange(beam.shape[1]), kids], axis=1)


@pytest.mark.parametrize("width", [1, 7, 40, 1000])
def test_pick_children_keeps_the_best_distinct_unseen_children(db4, width):
    from wsdb.db.store import Store

    p = wrapslide(4, 4)
    st = guide_for(p, Store.open(db4)).tables
    beam = np.concatenate([random_states(p, 6, seed=8), p.solved[:2]])
    beam = np.concatenate([beam, beam[:3]])  # the same state twice: its children are duplicates
    last = np.full(len(beam), len(p.blocked) - 1)
    _, key = score_children(beam, last, st, 1 << 62)
    key[::5] = -1  # left out
    seen = np.array(
        [np.bitwise_xor.reduce(st.zobrist[np.arange(16), p.apply(beam[1], [m])]) for m in range(0, len(p.moves), 3)],
        np.uint64,
    )  # some children seen before
    rows, hashes = pick_children(key, beam, st, seen, width)
    every = _child_hashes(beam, p, st.zobrist)
    assert (hashes == every[rows]).all()
    assert len(set(hashes.tolist())) == len(rows) and not set(hashes.tolist()) & set(seen.tolist())
    assert (key[rows] >= 0).all() and (np.diff(key[rows]) >= 0).all()  # none left out; best first
    eligible = {int(h) for h, k in zip(every, key) if k >= 0} - set(seen.tolist())
    assert len(rows) == min(width, len(eligible))
    # the smallest keys: a child not picked with a smaller key than the last is a state picked or seen
    skipped = np.setdiff1d(np.flatnonzero((key >= 0) & (key < key[rows].max())), rows)
    assert set(every[skipped].tolist()) <= set(hashes.tolist()) | set(seen.tolist())
    assert pick_children(key, beam, st, seen, width)[0].tolist() == rows.tolist()  # the same every time


def test_gather_bounds_largest_and_sum(db4):
    from wsdb.db.store import Store
    from wsdb.solver.kernels import colour_rank

    p = wrapslide(4, 4)
    st = guide_for(p, Store.open(db4)).tables
    for x in random_states(p, 20, seed=5):
        each = [int(st.table[colour_rank(x, col, st.binom)]) for col in st.gcols]
        assert tuple(gather_bounds(x, st.gcols, st.table, st.binom)) == (max(each), sum(each))
