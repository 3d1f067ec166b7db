"""Tables derived from the database (wsdb/solver/tables.py): gather tables
against brute-force distances, endgame tables against lookups."""

import itertools
import math

import numpy as np
import pytest

import wsdb
from wsdb.db.store import Store
from wsdb.puzzle import format_state, random_states, wrapslide
from wsdb.puzzle.tree_key import TreeKey
from wsdb.solver import tables
from wsdb.solver.kernels import colour_rank
from wsdb.solver.tables import binomials, endgame, gather_colours, gather_table


def test_colex_rank_is_a_bijection():
    binom = binomials(16, 4)
    ranks = set()
    for cells4 in itertools.combinations(range(16), 4):
        cells = np.ones(16, np.uint8)
        cells[list(cells4)] = 0
        ranks.add(int(colour_rank(cells, 0, binom)))
    assert ranks == set(range(math.comb(16, 4)))


def test_4x4_table_equals_brute_force_distances(db4, brute):
    table = gather_table(4, Store.open(db4))
    distance = brute(4, 2).distance
    binom = binomials(16, 4)
    for cells4 in itertools.combinations(range(16), 4):
        cells = np.ones(16, np.uint8)
        cells[list(cells4)] = 0
        assert table[colour_rank(cells, 0, binom)] == distance(cells)


def test_table_is_cached_beside_the_database(db4):
    store = Store.open(db4)
    gather_table(4, store)
    cached = list((db4.parent / f"{db4.name}.cache").glob("gather4-*.npy"))
    assert len(cached) == 1 and np.load(cached[0]).shape == (math.comb(16, 4),)


def test_no_table_without_a_complete_two_colour_tree(tmp_path):
    db = tmp_path / "partial.sqlite"
    wsdb.build(4, 2, db=db, max_depth=3)
    assert gather_table(4, Store.open(db)) is None


def test_gather_colours_are_the_single_quadrant_colours():
    for c, want in ((2, [0]), (3, [0, 1]), (4, [0, 1, 2, 3])):
        p = wrapslide(6, c)
        assert gather_colours(p.counts, 9).tolist() == want


@pytest.mark.slow
def test_6x6_table_matches_the_stored_levels(tmp_path):
    """Every raw 6x6 two-colour state gets its depth: the per-depth counts of
    the table are the stored per-depth state counts (which add up to C(36,9))."""
    db = tmp_path / "six.sqlite"
    wsdb.build(6, 2, db=db)
    store = Store.open(db)
    table = gather_table(6, store)
    counts = np.bincount(table)
    assert counts.tolist() == [lv["states"] for lv in store.level_rows(TreeKey.wrapslide(6, 2))]
    assert counts.sum() == math.comb(36, 9)


def test_endgame_depths_equal_lookups(tmp_path):
    db = tmp_path / "p.sqlite"
    wsdb.build(4, 4, db=db, max_depth=6)
    eg = endgame(4, 4, Store.open(db))
    assert eg.height == 6 and not eg.complete
    p = wrapslide(4, 4)
    near = [p.apply(p.solved[3], seq) for seq in (["T1"], ["T1", "L2", "B3"], ["R1", "T2", "L1", "B2", "R3"])]
    cells = np.concatenate([random_states(p, 40, seed=11), near])
    got = eg.depth(cells)
    for x, d in zip(cells, got):
        ans = wsdb.lookup(format_state(x), db=db)
        assert d == (ans.distance if ans.distance is not None else -1)
    assert (got >= 0).any() and (got == -1).any()  # both cases were tried


@pytest.mark.parametrize("c,stored,derived,asked", [(3, 4, (6, 7), False), (4, 4, (5, 6), False), (4, 4, (5, 6), True)])
def test_derived_levels_equal_the_complete_tree(tmp_path, monkeypatch, db4, c, stored, derived, asked):
    """A tree stored to depth 4, deepened in memory (exact levels, then one
    level as a filter; as DERIVED says, or as the caller asks), knows every
    class of the builder's complete tree at its depth up to the height, and
    none beyond."""
    if not asked:
        monkeypatch.setitem(tables.DERIVED, (4, c), derived)
    db = tmp_path / "shallow.sqlite"
    wsdb.build(4, c, db=db, max_depth=stored)
    eg = endgame(4, c, Store.open(db), derived if asked else None)
    if asked:  # the grid's own endgame stays as stored
        assert endgame(4, c, Store.open(db)).height == stored
    assert (eg.stored, eg.held, eg.height, eg.complete) == (stored, *derived, False)
    keys, depths = Store.open(db4).keys_and_depths(TreeKey.wrapslide(4, c), eg.eng.layout)
    got = eg.lookup(keys)
    assert (got == np.where(depths <= eg.height, depths, -1)).all()
    assert (depths > eg.height).any()  # classes beyond were asked too
    tables._endgames.clear()  # again, from the cache files
    cached = {f.name.split("-")[0] for f in (db.parent / f"{db.name}.cache").glob("endgame*")}
    plain = {f"endgame4c{c}h{stored}{part}" for part in ("keys", "depths", "starts")} if asked else set()
    assert cached == {f"endgame4c{c}h{derived[0]}{part}" for part in ("keys", "depths", "starts", "beyond")} | plain
    assert (endgame(4, c, Store.open(db), derived if asked else None).lookup(keys) == got).all()


def test_a_state_at_a_derived_depth_is_solved_through_the_stored_tree(tmp_path, monkeypatch, exact_distance):
    """descend() steps from the derived levels into the stored ones, so
    answers that meet the tree there are whole, verified and optimal."""
    monkeypatch.setitem(tables.DERIVED, (4, 4), (5, 6))
    db = tmp_path / "shallow.sqlite"
    wsdb.build(4, 2, db=db)
    wsdb.build(4, 4, db=db, max_depth=4)
    distance = exact_distance(4)
    p = wrapslide(4, 4)
    eg = endgame(4, 4, Store.open(db))
    rng = np.random.default_rng(8)
    walks = [p.apply(p.solved[0], list(rng.choice(p.move_names, k))) for k in (5, 6, 7, 8) for _ in range(20)]
    cells = [x for d in (5, 6, 7) for x in [x for x in walks if distance(x) == d][:5]]
    assert {5, 6, 7} <= {distance(x) for x in cells}
    for x in cells:
        d = distance(x)
        if d <= 6:
            moves, y = eg.descend(x)
            assert len(moves) == d - 4 and eg.depth(y[None])[0] == 4
            assert (p.apply(x, [p.move_names[m] for m in moves]) == y).all()
        ans = wsdb.solve(format_state(x), db=db)
        assert ans.length == d == ans.lower_bound and ans.optimal
        assert p.is_solved(p.apply(x, ans.moves))
