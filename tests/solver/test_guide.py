"""What every search consults (wsdb/solver/guide.py)."""
import numpy as np

from wsdb.db.store import Store
from wsdb.puzzle import random_states, wrapslide
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


def test_hashes_are_reproducible():
    a, b = guide_for(wrapslide(6, 3), None), guide_for(wrapslide(6, 3), None)
    assert np.array_equal(a.tables.zobrist, b.tables.zobrist)


def test_found_length_counts_the_stored_tail():
    assert Found([1, 2, 3], None, 4).length == 7 and Found([], None, 0).length == 0
