"""Meet in the middle with a partial tree (wsdb/solver/meet.py): exact
wherever it meets the tree, and its lower bounds never above the truth,
checked against complete trees."""

import pytest

import wsdb
from wsdb.db.store import Store
from wsdb.puzzle import format_state, random_states, wrapslide
from wsdb.solver import effort
from wsdb.solver.guide import guide_for
from wsdb.solver.meet import meet_in_the_middle, meet_ways


def partial(tmp_path, n, c, depth):
    db = tmp_path / f"partial{n}{c}.sqlite"
    wsdb.build(n, c, db=db, max_depth=depth)
    return db, guide_for(wrapslide(n, c), Store.open(db))


def check(p, cells, found, bound, exact, store):
    """The found sequence is real and optimal; the bound is proven."""
    from wsdb.db.lookup import lookup_grid

    assert bound <= exact
    if found is not None:
        moves = [p.move_names[m] for m in found.path] + lookup_grid(store, p, found.meet[None])[0].moves
        assert p.is_solved(p.apply(cells, moves)) and len(moves) == found.length == bound == exact


@pytest.mark.parametrize("c,depth", [(2, 4), (3, 5), (4, 5)])
def test_meets_every_4x4_state_at_its_exact_distance(tmp_path, exact_distance, c, depth):
    db, guide = partial(tmp_path, 4, c, depth)
    distance = exact_distance(c)
    p = wrapslide(4, c)
    deep = [x for x in random_states(p, 60, seed=c) if distance(x) > depth][:12]
    assert deep
    for cells in deep:
        found, bound, timed_out = meet_in_the_middle(guide, cells, effort.NEVER, keep_children=10**7)
        assert found is not None and not timed_out
        check(p, cells, found, bound, distance(cells), Store.open(db))


def test_bounds_when_the_search_stops_short(tmp_path, exact_distance):
    db, guide = partial(tmp_path, 4, 4, 4)
    distance = exact_distance(4)
    p = wrapslide(4, 4)
    far = [x for x in random_states(p, 60, seed=5) if distance(x) >= 8][:10]
    for cells in far:
        # one level, streamed: not met, so more than 1 + 4 moves
        found, bound, _ = meet_in_the_middle(guide, cells, effort.NEVER, keep_children=1)
        assert found is None and bound == 6 <= distance(cells)
        found, bound, timed_out = meet_in_the_middle(guide, cells, -1.0)
        assert found is None and timed_out and bound == 5  # no time: only the tree's own bound
    for cells in random_states(p, 10, seed=6):
        found, bound, _ = meet_in_the_middle(guide, cells, effort.NEVER, keep_children=2000)
        check(p, cells, found, bound, distance(cells), Store.open(db))


def test_several_ways_are_each_optimal_and_the_first_is_the_single_answer(tmp_path, exact_distance):
    """Every way meet_ways gives solves the state in exactly its distance,
    no two are the same sequence, and the first is meet_in_the_middle's."""
    db, guide = partial(tmp_path, 4, 3, 4)
    store = Store.open(db)
    distance = exact_distance(3)
    p = wrapslide(4, 3)
    deep = [x for x in random_states(p, 60, seed=31) if distance(x) > 4][:8]
    several = 0
    for cells in deep:
        ways, bound, _ = meet_ways(guide, cells, effort.NEVER, ways=6)
        one, _, _ = meet_in_the_middle(guide, cells, effort.NEVER)
        assert 1 <= len(ways) <= 6 and ways[0].path == one.path
        for found in ways:
            check(p, cells, found, bound, distance(cells), store)
        assert len({tuple(f.path) + tuple(f.meet) for f in ways}) == len(ways)
        several += len(ways) > 1
    assert several  # most states have more than one optimal way


@pytest.mark.slow
def test_6x6_two_colours_shallow_tree_against_the_full_one(tmp_path):
    full = tmp_path / "full.sqlite"
    wsdb.build(6, 2, db=full)
    db, guide = partial(tmp_path, 6, 2, 6)
    p = wrapslide(6, 2)
    for cells in random_states(p, 12, seed=66):
        exact = wsdb.lookup(format_state(cells), db=full).distance
        if exact <= 6:
            continue
        found, bound, _ = meet_in_the_middle(guide, cells, effort.NEVER)
        assert found is not None
        check(p, cells, found, bound, exact, Store.open(db))
