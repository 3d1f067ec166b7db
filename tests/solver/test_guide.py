"""What every search consults (wsdb/solver/guide.py)."""

import numpy as np

import wsdb
from wsdb.db.store import Store
from wsdb.puzzle import random_states, wrapslide
from wsdb.solver import effort
from wsdb.solver import guide as guide_module
from wsdb.solver.beam import beam_search
from wsdb.solver.guide import Found, guide_for


def test_bound_is_admissible(db4, exact_distance):
    for c in (2, 3, 4):
        p = wrapslide(4, c)
        guide = guide_for(p, Store.open(db4))
        distance = exact_distance(c)
        for x in random_states(p, 30, seed=c):
            assert 0 < guide.bound(x) <= distance(x)
        assert all(guide.bound(s) == 0 for s in p.solved)


def test_without_a_database_there_is_no_table():
    guide = guide_for(wrapslide(8, 4), None)
    assert not guide.has_table and guide.endgame is None and guide.bound(wrapslide(8, 4).solved[0]) == 0
    # its empty tables are read-only, like tables mapped from the cache: one compile serves both
    assert not guide.tables.table.flags.writeable and not guide.tables.pair.flags.writeable


def test_hashes_are_reproducible():
    a, b = guide_for(wrapslide(6, 3), None), guide_for(wrapslide(6, 3), None)
    assert np.array_equal(a.tables.zobrist, b.tables.zobrist)


def test_found_length_counts_the_stored_tail():
    assert Found([1, 2, 3], None, 4).length == 7 and Found([], None, 0).length == 0


def test_a_partial_two_colour_tree_gives_gather_distances(tmp_path, monkeypatch, exact_distance):
    """Where no gather table can be had (8x8; here 4x4 with the two-colour
    tree stored to depth 3), the tree gives each colour's gather distance:
    exact up to its height, the height + 1 beyond. The largest is a proven
    bound, zero only on solved states, and a beam it guides solves."""
    monkeypatch.setattr(guide_module, "GATHER_TREES", {(4, 4)})
    db = tmp_path / "partial.sqlite"
    wsdb.build(4, 2, db=db, max_depth=3)
    wsdb.build(4, 4, db=db, max_depth=3)
    store = Store.open(db)
    p = wrapslide(4, 4)
    guide = guide_for(p, store)
    assert not guide.has_table and guide.gathers is not None and guide.gathers.height == 3
    two, four = exact_distance(2), exact_distance(4)
    capped = seen = 0
    for x in random_states(p, 40, seed=5):
        each = [two((x != k).view(np.uint8)) for k in range(4)]  # colour k as the two-colour grid's colour 0
        capped += any(d > 3 for d in each)
        hmax, hsum = guide.gather_distances(x[None])
        assert hmax[0] == max(min(d, 4) for d in each) and hsum[0] == sum(min(d, 4) for d in each)
        assert 0 < guide.bound(x) <= four(x)
        found, _ = beam_search(guide, x, 200, effort.NEVER)
        if found is not None:
            seen += 1
            moves = [p.move_names[m] for m in found.moves(store, p, guide.endgame)]
            assert p.is_solved(p.apply(x, moves)) and len(moves) >= four(x)
    assert capped and seen >= 30  # states beyond the tree were met; the beam solved most
    assert all(guide.gather_distances(s[None])[0][0] == 0 for s in p.solved)
