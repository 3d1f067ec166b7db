"""The bounds' arguments (wsdb/bounds/arguments.py, `wsdb bounds`) on grids
whose God number is known (4x4 all colours, 6x6 two; tests/data/thesis.json):
every lower bound at most it, every upper bound at least it, and the phase
decomposition's worst case checked against the brute-force distances."""

import itertools
import json
import math

import numpy as np
import pytest

import wsdb
from wsdb.db.store import Store
from wsdb.bounds import arguments as bd

from .arrangements import gathered, holds


@pytest.mark.parametrize("c", [2, 3, 4])
def test_4x4_bounds_hold(db, thesis, c):
    god = thesis["god_numbers"][f"4x4_c{c}"]
    found, missing = bd.compute(Store.open(db, write=True), 4, c)
    assert holds(found, god) and not missing
    kinds = {(b.method, b.kind): b.value for b in found}
    assert kinds[("tree", "lower")] == kinds[("tree", "upper")] == god
    assert kinds[("counting", "lower")] < god
    if c > 2:
        assert kinds[("phases", "upper")] > god  # two phases are never both at their worst here


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


def pruned_reach(puzzle, depth):
    """States per depth reached from the solved states by the move
    sequences the pruning table allows, each first at its shortest allowed
    length: a walk over (state, last family) pairs."""
    weights = puzzle.c ** np.arange(puzzle.ncells, dtype=np.int64)
    states = puzzle.solved.astype(np.int64)
    rows = np.full(len(states), len(puzzle.blocked) - 1)
    seen, pairs = set((states @ weights).tolist()), set()
    per_depth = [len(seen)]
    for _ in range(depth):
        kids, fams = [], []
        for m in range(len(puzzle.moves)):
            fam = int(puzzle.move_family[m])
            go = ~puzzle.blocked[rows, fam]
            kids.append(states[go][:, puzzle.moves[m]])
            fams.append(np.full(int(go.sum()), fam))
        states, rows = np.concatenate(kids), np.concatenate(fams)
        codes = states @ weights
        _, first = np.unique(codes * len(puzzle.blocked) + rows, return_index=True)
        fresh = [i for i in first if (int(codes[i]), int(rows[i])) not in pairs]
        pairs.update(zip(codes[fresh].tolist(), rows[fresh].tolist()))
        states, rows = states[fresh], rows[fresh]
        new = set(codes[fresh].tolist()) - seen
        seen |= new
        per_depth.append(len(new))
    return per_depth


@pytest.mark.parametrize("c", [2, 3])
def test_the_pruned_sequences_reach_every_state_as_soon_as_any_sequence(brute, c):
    # the counting bound rests on it: every state within d has an allowed sequence of at most d moves
    truth = brute(4, c).states  # states per depth, breadth-first over every raw state (no wsdb code)
    depth = len(truth) - 1 if c == 2 else 5
    assert pruned_reach(wsdb.wrapslide(4, c), depth) == truth[: depth + 1]


def words(puzzle, length):
    """Allowed move sequences of ``length`` moves, by enumeration."""
    start = len(puzzle.blocked) - 1
    count = 0
    for seq in itertools.product(range(len(puzzle.moves)), repeat=length):
        rows = [start] + [int(puzzle.move_family[m]) for m in seq]
        count += all(not puzzle.blocked[a, b] for a, b in zip(rows, rows[1:]))
    return count


def test_the_allowed_sequences_are_counted_as_by_enumeration():
    p = wsdb.wrapslide(4, 3)
    steps = bd.continuations(p.blocked, p.move_family)
    assert [next(steps)[-1] for _ in range(5)] == [words(p, k) for k in range(5)]


@pytest.mark.parametrize("c", [2, 3])
def test_the_counted_ball_holds_the_states_of_a_complete_tree(brute, c):
    p, truth = wsdb.wrapslide(4, c), brute(4, c).states
    b = bd.counting(4, c)
    assert b.value <= len(truth) - 1  # at most the God number
    within = list(itertools.accumulate(truth))
    for d in range(1, len(truth)):
        # the bound for "no more than within[d] states": the radius it proves is at most d
        assert bd.first_radius(p.blocked, p.move_family, within[d], 0, len(p.solved), len(p.solved))[0] <= d
        # and a tree's levels to any depth D, counted on from there, hold every later depth too
        for top in range(1, d):
            assert bd.first_radius(p.blocked, p.move_family, within[d], top, within[top], truth[top])[0] <= d


def test_the_counting_bound_is_the_first_radius_that_holds_every_state():
    b = bd.counting(6, 4)
    p = wsdb.wrapslide(6, 4)
    steps = bd.continuations(p.blocked, p.move_family)
    ball = list(itertools.accumulate(len(p.solved) * next(steps)[-1] for _ in range(b.value + 1)))
    assert ball[b.value - 1] == b.witness["within"] < b.witness["states"] <= ball[b.value]
    moves, naive = len(p.moves), 0  # the bound without pruning: any move but the last one's inverse
    while len(p.solved) * (1 + moves * sum((moves - 1) ** k for k in range(naive))) < p.states:
        naive += 1
    assert b.value > naive


def test_a_stored_partial_tree_raises_the_counting_bound(tmp_path):
    path = tmp_path / "w.sqlite"
    wsdb.build(4, 4, db=path, max_depth=5)
    store = Store.open(path, write=True)
    found, _ = bd.compute(store, 4, 4)
    counted = {b.witness.get("tree_depth"): b.value for b in found if b.method == "counting"}
    assert counted[None] <= counted[5] <= 12  # the God number of 4x4 four colours


def test_bounds_command_stores_lists_and_does_not_repeat(db, run):
    assert run("bounds", "compute", "--n", 4, "--c", 3, "--db", db).exit_code == 0
    assert run("bounds", "compute", "--n", 4, "--c", 3, "--db", db).exit_code == 0
    rows = [json.loads(line) for line in run("bounds", "--n", 4, "--db", db, "--json").output.splitlines()]
    assert sorted((r["kind"], r["method"]) for r in rows) == [
        ("lower", "counting"),
        ("lower", "tree"),
        ("upper", "phases"),
        ("upper", "tree"),
    ]
    assert all(r["version"] and r["proven_at"] and r["command"].startswith("wsdb ") for r in rows)
    out = run("bounds", "--db", db).output
    assert "4x4 3 colours: God number 10" in out


def test_a_grid_without_a_coarser_tree_says_why(db, run):
    res = run("bounds", "compute", "--n", 6, "--c", 3, "--db", db)
    assert res.exit_code == 0
    assert "not proven: phases: no complete tree of 6x6" in res.stderr
    res = run("bounds", "compute", "--n", 5, "--c", 3, "--db", db)
    assert res.exit_code == 2 and "Traceback" not in res.output
    # no 8x8 tree can be finished, so the phases suggest no build: C(64, 16) two-colour states; the
    # counting bound would rise with the 8x8 three-colour tree's levels, and the answer names that build
    res = run("bounds", "compute", "--n", 8, "--c", 3, "--db", db)
    phases = next(line for line in res.stderr.splitlines() if "phases:" in line)
    assert res.exit_code == 0 and "build" not in phases and f"{math.comb(64, 16):.1e} states" in phases
    tree = next(line for line in res.stderr.splitlines() if "not proven: tree:" in line)
    assert f"`wsdb build --n 8 --c 3 --db {db}`" in tree and "counting bound" in tree


def test_a_complete_tree_leaves_no_bound_missing(tmp_path, run):
    path = tmp_path / "w.sqlite"
    wsdb.build(4, 3, db=path)  # no two-colour tree for the phases, but the God number itself
    res = run("bounds", "compute", "--n", 4, "--c", 3, "--db", path)
    assert res.exit_code == 0 and "upper bound 10 by tree" in res.stdout and res.stderr == ""


def test_a_tree_stopped_at_the_god_number_holding_every_state_is_exact(tmp_path, thesis):
    path = tmp_path / "w.sqlite"
    god = thesis["god_numbers"]["4x4_c2"]
    wsdb.build(4, 2, db=path, max_depth=god)  # depth 7 is empty, but never grown
    found, _ = bd.compute(Store.open(path, write=True), 4, 2)
    assert sorted((b.kind, b.value) for b in found if b.method == "tree") == [("lower", god), ("upper", god)]
    wsdb.build(4, 2, db=tmp_path / "short.sqlite", max_depth=god - 1)  # some states lie past: no exact value
    found, _ = bd.compute(Store.open(tmp_path / "short.sqlite", write=True), 4, 2)
    assert not [b for b in found if b.method == "tree"] and holds(found, god)


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
