"""IDA* (wsdb/solver/ida.py), plain and handing over to a partial tree:
its lengths are the true distances, its bounds never above them."""

import pytest

import wsdb
from wsdb.db.store import Store
from wsdb.puzzle import format_state, random_states, wrapslide
from wsdb.solver import effort
from wsdb.solver.guide import guide_for
from wsdb.solver.ida import ida_to_tree


@pytest.mark.parametrize("c", [2, 3, 4])
def test_ida_star_finds_the_brute_force_distance(db4, exact_distance, c):
    distance = exact_distance(c)
    p = wrapslide(4, c)
    for cells in random_states(p, 12, seed=c):
        sol = wsdb.solve(format_state(cells), db=db4, method="optimal")
        assert sol.method == "optimal" and sol.optimal
        assert sol.length == sol.lower_bound == distance(cells)
        assert p.is_solved(p.apply(cells, sol.moves))


def test_optimal_needs_a_gather_table(tmp_path):
    wsdb.build(4, 3, db=tmp_path / "x.sqlite")
    with pytest.raises(wsdb.WsdbError, match="gather table"):
        wsdb.solve("1212/1212/3333/3333", db=tmp_path / "x.sqlite", method="optimal")


@pytest.mark.slow
def test_ida_star_on_6x6_two_colours_equals_the_database(tmp_path):
    db = tmp_path / "six.sqlite"
    wsdb.build(6, 2, db=db)
    p = wrapslide(6, 2)
    for cells in random_states(p, 10, seed=4):
        text = format_state(cells)
        sol = wsdb.solve(text, db=db, method="optimal")
        assert sol.length == wsdb.lookup(text, db=db).distance and sol.optimal


@pytest.mark.parametrize("c,depth", [(3, 4), (4, 5)])
def test_ida_to_a_partial_tree_finds_the_brute_force_distance(tmp_path, exact_distance, c, depth):
    # the gather table comes from the complete two-colour tree in the same database
    db = tmp_path / "partial.sqlite"
    wsdb.build(4, 2, db=db)
    wsdb.build(4, c, db=db, max_depth=depth)
    distance = exact_distance(c)
    p = wrapslide(4, c)
    deep = [x for x in random_states(p, 80, seed=10 + c) if distance(x) > depth + 1][:10]
    assert deep
    for cells in deep:
        sol = wsdb.solve(format_state(cells), db=db, method="optimal")
        assert sol.method == "optimal" and sol.optimal
        assert sol.length == sol.lower_bound == distance(cells)
        assert p.is_solved(p.apply(cells, sol.moves))


def partial_four_colours(tmp_path, depth: int):
    """A database with the complete 4x4 two-colour tree (the gather table)
    and the four-colour tree to ``depth``."""
    db = tmp_path / "partial.sqlite"
    wsdb.build(4, 2, db=db)
    wsdb.build(4, 4, db=db, max_depth=depth)
    return db


def test_ida_to_a_partial_tree_out_of_time_keeps_a_proven_bound(tmp_path, exact_distance):
    guide = guide_for(wrapslide(4, 4), Store.open(partial_four_colours(tmp_path, 3)))
    distance = exact_distance(4)
    for cells in random_states(wrapslide(4, 4), 20, seed=9):
        if distance(cells) <= 3:
            continue
        found, bound, timed_out = ida_to_tree(guide, cells, -1.0, 1)
        assert found is None and timed_out and 4 <= bound <= distance(cells)
        found, bound, timed_out = ida_to_tree(guide, cells, effort.NEVER, 1)
        assert not timed_out and found.length == bound == distance(cells)


def test_ida_to_a_partial_tree_under_a_ceiling_proves_or_shortens(tmp_path, exact_distance):
    # with the length of an answer already found as its ceiling: a longer answer is shortened to the
    # distance; an answer at the distance is proven without searching the bound that would find it
    guide = guide_for(wrapslide(4, 4), Store.open(partial_four_colours(tmp_path, 4)))
    distance = exact_distance(4)
    deep = [x for x in random_states(wrapslide(4, 4), 60, seed=12) if distance(x) > 5][:8]
    assert deep
    for cells in deep:
        d = distance(cells)
        found, bound, timed_out = ida_to_tree(guide, cells, effort.NEVER, 1, upper=d)
        assert found is None and bound == d and not timed_out
        found, bound, timed_out = ida_to_tree(guide, cells, effort.NEVER, 1, upper=d + 2)
        assert found.length == bound == d and not timed_out


def test_auto_proves_or_shortens_the_beam_where_the_grid_asks(tmp_path, exact_distance, monkeypatch):
    # PROVE_EFFORT (6x6 three colours) on a 4x4 four-colour partial tree, with a narrow beam and a
    # short meet so that the beam's answers are often long: every answer the search reaches is the
    # distance and proven, and some are the beam's shortened
    from wsdb.solver import methods, results

    monkeypatch.setitem(methods.PROVE_EFFORT, (4, 4), 1e9)
    monkeypatch.setitem(methods.MEET_CHILDREN, (4, 4), 30)
    monkeypatch.setitem(results.BEAM_WIDTH, (4, 4), 40)
    db = partial_four_colours(tmp_path, 4)
    distance = exact_distance(4)
    p = wrapslide(4, 4)
    states = random_states(p, 40, seed=13)
    searched = [
        (sol, cells)
        for sol, cells in zip(wsdb.solve_many([format_state(x) for x in states], db=db), states)
        if sol.method in ("beam (after meet in the middle)", "optimal (after beam)")
    ]
    assert len(searched) >= 10
    for sol, cells in searched:
        assert sol.optimal and sol.length == sol.lower_bound == distance(cells)
        assert p.is_solved(p.apply(cells, sol.moves))
    assert sum(sol.method == "optimal (after beam)" for sol, _ in searched) >= 3
