"""Beam search (wsdb/solver/beam.py): its paths are real, its hand-overs
to the stored tree exact, its waypoints reachable."""

import numpy as np

import wsdb
from wsdb.db.store import Store
from wsdb.puzzle import random_states, wrapslide
from wsdb.solver import effort
from wsdb.solver.beam import beam_search, beam_ways
from wsdb.solver.guide import guide_for


def test_found_paths_lead_to_the_meeting_state(tmp_path, exact_distance):
    db = tmp_path / "b.sqlite"
    wsdb.build(4, 2, db=db)
    wsdb.build(4, 4, db=db, max_depth=4)
    p = wrapslide(4, 4)
    guide = guide_for(p, Store.open(db))
    distance = exact_distance(4)
    for cells in random_states(p, 6, seed=7):
        found, waypoints = beam_search(guide, cells, 2000, effort.NEVER)  # room to compile
        assert found is not None
        meet = p.apply(cells, found.path)
        assert (meet == found.meet).all()
        assert found.rest == distance(meet) and found.length >= distance(cells)
        for x, path in waypoints:
            assert (p.apply(cells, path) == x).all()


def test_width_one_is_still_sound(db4):
    p = wrapslide(4, 3)
    guide = guide_for(p, Store.open(db4))
    answered = 0
    for cells in random_states(p, 10, seed=8):
        before = cells.copy()
        found, _ = beam_search(guide, cells, 1, effort.NEVER)
        assert np.array_equal(cells, before)  # the start is not modified
        if found is None:  # a width-one beam may stall; when it answers, the answer is real
            continue
        answered += 1
        meet = p.apply(cells, found.path)
        assert (meet == found.meet).all() and (found.rest > 0 or p.is_solved(meet))
    assert answered  # the 4x4 three-colour tree is complete: every beam state hands over


def test_the_tree_is_asked_only_where_the_gather_bound_allows(partial4, monkeypatch):
    """The beam skips the tree lookup of states whose largest gather
    distance exceeds the tree's height: such states are never in it, so
    the answers are those of a beam that asks about every state."""
    _, _, guide = partial4
    p = guide.puzzle
    states = random_states(p, 8, seed=11)
    eg = guide.endgame
    walks = np.stack([p.apply(x, list(np.random.default_rng(i).choice(p.move_names, 6))) for i, x in enumerate(states)])
    near = eg.depth(walks) >= 0
    assert all(guide.bound(x) <= eg.height for x in walks[near])  # the fact the skip rests on

    def answers():
        found = [beam_search(guide, x, 1000, effort.NEVER)[0] for x in states]
        return [(f.path, f.rest) for f in found if f is not None]

    skipping = answers()
    monkeypatch.setattr(type(guide), "has_table", property(lambda self: False))
    assert answers() == skipping and len(skipping) >= 6


def test_a_beam_from_several_starts_answers_from_one_of_them(tmp_path, exact_distance):
    """Started from several states, each reached by a prefix of one
    length, the beam's answers begin with one of the prefixes and solve the
    state the prefixes start from; from one start it is the plain beam."""
    db = tmp_path / "b.sqlite"
    wsdb.build(4, 3, db=db, max_depth=3)
    p = wrapslide(4, 3)
    guide = guide_for(p, Store.open(db))
    rng = np.random.default_rng(12)
    for cells in random_states(p, 5, seed=12):
        prefixes = [[int(m) for m in rng.integers(0, len(p.move_names), 2)] for _ in range(4)]
        starts = np.stack([p.apply(cells, [p.move_names[m] for m in pre]) for pre in prefixes])
        ways, waypoints = beam_ways(guide, starts, 300, effort.NEVER, 3, prefixes=prefixes)
        assert ways and len({f.length for f in ways}) == 1
        for found in ways:
            assert found.path[:2] in prefixes
            assert (p.apply(cells, [p.move_names[m] for m in found.path]) == found.meet).all()
            assert found.rest == exact_distance(3)(found.meet)
        for x, path in waypoints:
            assert (p.apply(cells, [p.move_names[m] for m in path]) == x).all()
        one, _ = beam_search(guide, starts[0], 300, effort.NEVER)
        alone, _ = beam_ways(guide, starts[:1], 300, effort.NEVER, 1, prefixes=prefixes[:1])
        assert alone[0].path == prefixes[0] + one.path
