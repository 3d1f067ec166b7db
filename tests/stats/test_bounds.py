"""Proven bounds (wsdb/stats/bounds.py, `wsdb bounds`) on grids whose God
number is known (4x4 all colours, 6x6 two; tests/data/thesis.json): every
lower bound at most it, every upper bound at least it, and the phase
decomposition's worst case checked against the brute-force distances."""
import itertools
import json
import shutil

import numpy as np
import pytest

import wsdb
from wsdb.db.store import Store
from wsdb.stats import bounds as bd


@pytest.fixture
def db(db4, tmp_path):
    """A copy of the 4x4 database (bounds are written into it)."""
    path = tmp_path / "w.sqlite"
    shutil.copy(db4, path)
    return path


def holds(bounds, god):
    return all(b.value <= god if b.kind == "lower" else b.value >= god for b in bounds)


@pytest.mark.parametrize("c", [2, 3, 4])
def test_4x4_bounds_hold(db, thesis, c):
    god = thesis["god_numbers"][f"4x4_c{c}"]
    found, missing = bd.compute(Store.open(db, write=True), 4, c)
    assert holds(found, god) and not missing
    kinds = {(b.method, b.kind): b.value for b in found}
    assert kinds[("tree", "lower")] == kinds[("tree", "upper")] == god
    assert kinds[("counting", "lower")] < god
    if c > 2:
        assert kinds[("phases", "upper")] > god   # two phases are never both at their worst here


def quadrant_cells(n, quad):
    h = n // 2
    r0, c0 = divmod(quad, 2)
    return [(r0 * h + r) * n + c0 * h + c for r in range(h) for c in range(h)]


def arrangements(size, colours, counts):
    """Every sequence of ``size`` cells holding counts[i] of colours[i]."""
    if not colours:
        yield []
        return
    for picked in itertools.combinations(range(size), counts[0]):
        for rest in arrangements(size - counts[0], colours[1:], counts[1:]):
            it = iter(rest)
            yield [colours[0] if k in picked else next(it) for k in range(size)]


def gathered(n, counts, first):
    """Every 4x4 state whose colours 0..first-1 each fill a whole quadrant
    (written from the rules, not from wsdb): the states the later phase
    starts from."""
    out = []
    for quads in itertools.permutations(range(4), first):
        rest = [cell for cell in range(n * n) if not any(cell in quadrant_cells(n, q) for q in quads)]
        for fill in arrangements(len(rest), list(range(first, len(counts))), list(counts[first:])):
            cells = np.zeros(n * n, np.uint8)
            for colour, q in enumerate(quads):
                cells[quadrant_cells(n, q)] = colour
            cells[rest] = fill
            out.append(cells)
    return np.unique(np.array(out), axis=0)


@pytest.mark.parametrize("c, counts", [(3, (4, 4, 8)), (4, (4, 4, 4, 4))])
def test_the_phase_worst_case_is_the_exact_trees(db, c, counts):
    # c colours from c-1: colours 1..c-2 gathered in a quadrant each, the rest anywhere
    ours = bd.phase_states(4, c)
    assert {s.tobytes() for s in ours} == {s.tobytes() for s in gathered(4, counts, c - 2)}
    distances = [a.distance for a in wsdb.lookup_many([wsdb.format_state(s) for s in ours], db=db)]
    worst, state = bd.phase_worst(Store.open(db), 4, c)
    assert worst == max(distances)
    assert wsdb.lookup(state, db=db).distance == worst


def test_a_proven_state_is_its_exact_distance(db, exact_distance):
    cells = wsdb.random_states(wsdb.wrapslide(4, 4), 1, seed=7)[0]
    b = bd.by_state(wsdb.format_state(cells), db=db)
    assert b.kind == "lower" and b.witness["optimal"]
    assert b.value == exact_distance(4)(cells) <= 12


def test_the_counting_bound_is_the_first_radius_that_holds_every_state():
    b = bd.counting(6, 4)
    moves, roots, states = b.witness["moves"], b.witness["solved"], b.witness["states"]
    ball = [1 + moves * sum((moves - 1) ** k for k in range(d)) for d in range(b.value + 1)]
    assert roots * ball[b.value - 1] < states <= roots * ball[b.value]


def test_bounds_command_stores_lists_and_does_not_repeat(db, run):
    assert run("bounds", "compute", "--n", 4, "--c", 3, "--db", db).exit_code == 0
    assert run("bounds", "compute", "--n", 4, "--c", 3, "--db", db).exit_code == 0
    rows = [json.loads(line) for line in run("bounds", "--n", 4, "--db", db, "--json").output.splitlines()]
    assert sorted((r["kind"], r["method"]) for r in rows) == [
        ("lower", "counting"), ("lower", "tree"), ("upper", "phases"), ("upper", "tree")]
    assert all(r["version"] and r["proven_at"] and r["command"].startswith("wsdb ") for r in rows)
    out = run("bounds", "--db", db).output
    assert "4x4 3 colours: God number 10" in out


def test_a_grid_without_a_coarser_tree_says_why(db, run):
    res = run("bounds", "compute", "--n", 6, "--c", 3, "--db", db)
    assert res.exit_code == 0
    assert "not proven: phases: no complete tree of 6x6" in res.stderr
    res = run("bounds", "compute", "--n", 5, "--c", 3, "--db", db)
    assert res.exit_code == 2 and "Traceback" not in res.output


@pytest.mark.slow
def test_6x6_two_colour_bounds_hold(thesis, tmp_path):
    god = thesis["god_numbers"]["6x6_c2"]
    path = tmp_path / "w.sqlite"
    wsdb.build(6, 2, db=path)
    found, _ = bd.compute(Store.open(path, write=True), 6, 2)
    cells = wsdb.random_states(wsdb.wrapslide(6, 2), 3, seed=1)
    found += [bd.by_state(wsdb.format_state(s), db=path) for s in cells]
    assert holds(found, god)
    assert max(b.value for b in found if b.kind == "lower") == god == min(b.value for b in found if b.kind == "upper")


def test_stats_shows_the_best_bounds(db, run):
    run("bounds", "compute", "--n", 4, "--c", 3, "--db", db)
    out = run("stats", "--n", 4, "--c", 3, "--db", db).output
    assert "proven bounds (wsdb bounds): 10 <= God number <= 10" in out
