"""The visit table (wsdb/solver/visit_kernels.py): what a slot answers, and
IDA* with it finding the brute-force distances with fewer nodes."""

import numpy as np
import pytest

from wsdb.db.store import Store
from wsdb.puzzle import random_states, wrapslide
from wsdb.solver import effort, ida
from wsdb.solver.guide import guide_for
from wsdb.solver.ida import ida_star, ida_to_tree
from wsdb.solver.visit_kernels import visit, visit_tables

EVERY = 0b1111


def test_a_state_is_skipped_only_where_it_was_searched_with_as_many_moves_left():
    keys, meta = (a[0] for a in visit_tables(1, 1 << 8))
    x, y = np.arange(36, dtype=np.uint8) % 4 + 1, np.arange(36, dtype=np.uint8)[::-1] % 4 + 1
    assert visit(keys, meta, x, 5, 0b1110) == 0  # new: search all
    assert visit(keys, meta, x, 5, 0b1110) == -1  # again, as deep: nothing new
    assert visit(keys, meta, x, 6, 0b0110) == -1  # deeper, fewer families
    assert visit(keys, meta, x, 7, 0b1011) == 0b1110  # deeper: only the family not searched
    assert visit(keys, meta, x, 5, 0b1011) == 0b1110  # as deep: the same, and now it has all
    assert visit(keys, meta, x, 5, EVERY) == -1
    assert visit(keys, meta, x, 4, 0b1110) == 0  # nearer the start: searched again
    assert visit(keys, meta, x, 5, 0b0001) == 0b1110  # what was searched from 4 moves counts from 5
    assert visit(keys, meta, y, 5, 0b1110) == 0  # another state is never taken for it
    # a state differing in one cell, past the first word, is another state
    z = x.copy()
    z[35] = 1 if z[35] != 1 else 2
    assert visit(keys, meta, z, 9, EVERY) == 0


def _nodes(search, monkeypatch, slots, *args):
    monkeypatch.setattr(ida, "VISIT_SLOTS", slots)
    with effort.metered() as m:
        found, lower, timed_out = search(*args)
    assert not timed_out
    return found, lower, m.counts["dfs"]


@pytest.mark.parametrize("c", [3, 4])
def test_plain_ida_star_with_visits_is_as_short_with_fewer_nodes(db4, exact_distance, monkeypatch, c):
    distance = exact_distance(c)
    p = wrapslide(4, c)
    store = Store.open(db4)
    guide = guide_for(p, store)
    saved = 0
    for cells in random_states(p, 8, seed=40 + c):
        args = (guide, cells, 1e12, 0)
        found, lower, with_visits = _nodes(ida_star, monkeypatch, 1 << 12, *args)
        plain, _, without = _nodes(ida_star, monkeypatch, 0, *args)
        assert found.length == lower == plain.length == distance(cells)
        assert p.is_solved(p.apply(cells, found.path))
        assert with_visits <= without
        saved += without - with_visits
    store.close()
    assert saved > 0


def test_ida_to_a_partial_tree_with_visits_is_as_short_with_fewer_nodes(partial4, exact_distance, monkeypatch):
    _, _, guide = partial4
    distance = exact_distance(4)
    p = wrapslide(4, 4)
    deep = [x for x in random_states(p, 60, seed=77) if guide.endgame.depth(x[None])[0] < 0][:6]
    assert deep
    saved = 0
    for cells in deep:
        args = (guide, cells, 1e12, 0)
        found, lower, with_visits = _nodes(ida_to_tree, monkeypatch, 1 << 12, *args)
        plain, _, without = _nodes(ida_to_tree, monkeypatch, 0, *args)
        assert found.length == lower == plain.length == distance(cells)
        assert with_visits <= without
        saved += without - with_visits
    assert saved > 0
