"""The pair bound (wsdb/solver/pairs.py, pair_kernels.py): each pairing's
distance is the brute-force distance of the state's two-colour image, the
one-move update along a walk stays exact, and the bound never passes the
true distance."""

import numpy as np
import pytest

from tests.bruteforce import level_states
from wsdb.db.store import Store
from wsdb.puzzle import random_states, wrapslide
from wsdb.solver.guide import guide_for
from wsdb.solver.pair_kernels import pair_child, pair_kids, pair_stack, pair_start
from wsdb.solver.pairs import coarse, pair_words, partitions


def test_the_pairings_are_the_sides_with_half_the_cells():
    assert partitions(wrapslide(4, 4)) == [(0, 1), (0, 2), (0, 3)]
    assert partitions(wrapslide(6, 4)) == [(0, 1), (0, 2), (0, 3)]
    assert partitions(wrapslide(4, 3)) == [(0, 1)]  # 4 + 4 against 8
    assert partitions(wrapslide(6, 3)) == [(0, 1)]
    assert partitions(wrapslide(6, 2)) == []  # 9 against 27: the gather table's grid
    assert partitions(wrapslide(8, 4)) == []  # 64 cells: C(64, 32) indices do not fit
    grid = coarse(wrapslide(6, 4), (0, 2))
    assert grid.counts == (18, 18) and len(grid.solved) == 6  # two quadrants of each side, any two


@pytest.fixture(scope="module")
def pair_guides(db4):
    store = Store.open(db4)
    yield {c: guide_for(wrapslide(4, c), store, pairs=True) for c in (3, 4)}
    store.close()


@pytest.fixture(scope="module")
def coarse_distance():
    """The brute-force distance of a cell set in 4x4 8/8 from every
    arrangement of two monochrome quadrants (rules only, no wsdb code)."""
    n, h = 4, 2
    r, j = np.divmod(np.arange(n * n), n)
    quads = (r >= h) * 2 + (j >= h)
    goals = [np.isin(quads, pair).astype(np.uint8) for pair in [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]]
    depth = {}
    for d, level in enumerate(level_states(n, goals)):
        for row in level:
            depth[row.tobytes()] = d
    return lambda on: depth[np.asarray(on, dtype=np.uint8).tobytes()]


@pytest.mark.parametrize("c", [3, 4])
def test_each_pairing_distance_is_the_brute_force_distance(pair_guides, coarse_distance, c):
    guide = pair_guides[c]
    assert guide.has_pairs
    sides = partitions(wrapslide(4, c))
    for cells in random_states(wrapslide(4, c), 40, seed=31 + c):
        got = guide.pair_distances(cells)
        assert list(got) == [coarse_distance(np.isin(cells, side)) for side in sides]


def test_the_one_move_update_stays_exact_along_a_walk(pair_guides):
    guide = pair_guides[4]
    t = guide.tables
    moves = wrapslide(4, 4).moves  # in the kernels' order
    rng = np.random.default_rng(5)
    cells = random_states(wrapslide(4, 4), 1, seed=9)[0]
    ps = pair_stack(2, len(moves), 3)
    first = len(t.blocked) - 1  # the start row: no move is pruned
    pair_start(cells, t, ps)
    for _ in range(200):
        m = int(rng.integers(len(moves)))
        pair_kids(t, ps, 0, first)
        top = pair_child(t, ps, 0, m, 99)
        cells = np.ascontiguousarray(cells[moves[m]])
        assert list(ps.dist[1]) == list(guide.pair_distances(cells)) and top == ps.dist[1].max()
        if top > 0:  # with a limit below the largest, it stops at a partition over the limit
            assert pair_child(t, ps, 0, m, top - 1) > top - 1
        pair_start(cells, t, ps)


@pytest.mark.parametrize("c", [3, 4])
def test_the_bound_never_passes_the_true_distance(pair_guides, exact_distance, c):
    guide, distance = pair_guides[c], exact_distance(c)
    states = random_states(wrapslide(4, c), 60, seed=70 + c)
    bounds = [guide.bound(cells) for cells in states]
    truth = [distance(cells) for cells in states]
    assert all(b <= t for b, t in zip(bounds, truth))
    assert max(bounds) >= 5  # and it is a bound worth having, not zero


def test_the_census_is_cached_beside_the_database_and_read_by_the_optimal_method_only(tmp_path):
    import wsdb

    db = tmp_path / "w.sqlite"
    wsdb.build(4, 2, db=db)
    store = Store.open(db)
    try:
        made = pair_words(wrapslide(4, 4), store)
        assert list((tmp_path / "w.sqlite.cache").glob("census4x4-*-words-*.npy"))
        assert np.array_equal(made, pair_words(wrapslide(4, 4), store))  # read back
        assert guide_for(wrapslide(4, 4), store, pairs=True).has_pairs
        # cached or not, the other methods do not read it: their answers do not depend on it
        assert not guide_for(wrapslide(4, 4), store).has_pairs
        assert not guide_for(wrapslide(4, 2), store, pairs=True).has_pairs  # no pairing on two colours
    finally:
        store.close()
