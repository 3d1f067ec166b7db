"""Lookup (wsdb/db/lookup.py): distances are optimal, sequences solve."""

import json

import pytest

import wsdb
from wsdb.puzzle import format_state, parse_state, random_states, wrapslide


def solves(answer):
    puzzle, cells = parse_state(answer.state)
    return puzzle.is_solved(puzzle.apply(cells, answer.moves)) and len(answer.moves) == answer.distance


@pytest.mark.parametrize("c", [2, 3, 4])
def test_random_lookups_solve_in_the_stated_distance(db4, c):
    p = wrapslide(4, c)
    states = [format_state(s) for s in random_states(p, 300, seed=c)]
    answers = wsdb.lookup_many(states, db=db4)
    assert all(solves(a) for a in answers)


@pytest.mark.parametrize("c", [2, 3])
def test_distances_equal_brute_force_bfs(db4, brute, c):
    # the distance of each raw state by a BFS over all raw states
    p = wrapslide(4, c)
    distance = brute(4, c).distance
    cells = random_states(p, 300, seed=20 + c)
    answers = wsdb.lookup_many([format_state(s) for s in cells], db=db4)
    assert [a.distance for a in answers] == [distance(s) for s in cells]


def test_antipodes_are_at_the_god_number(db4):
    ans = wsdb.lookup("1212/3434/1243/3421", db=db4)
    assert ans.distance == 12 and solves(ans)


def test_solved_state(db4):
    ans = wsdb.lookup("1122/1122/3344/3344", db=db4)
    assert ans.distance == 0 and ans.moves == []


def test_partial_tree_answers_more_than(tmp_path):
    db = tmp_path / "p.sqlite"
    wsdb.build(4, 4, db=db, max_depth=3)
    p = wrapslide(4, 4)
    near = p.apply(p.solved[0], ["T1", "L1"])
    ans = wsdb.lookup(format_state(near), db=db)
    assert ans.distance == 2 and solves(ans)
    far = wsdb.lookup("1212/3434/1243/3421", db=db)
    assert far.distance is None and far.more_than == 3


def test_lookup_on_6x6_partial_tree(tmp_path):
    db = tmp_path / "p6.sqlite"
    wsdb.build(6, 4, db=db, max_depth=2)
    p = wrapslide(6, 4)
    state = p.apply(p.solved[5], ["B2", "R4"])
    ans = wsdb.lookup(format_state(state), db=db)
    assert ans.distance == 2 and solves(ans)


def test_stored_builds_and_levels(db4):
    builds = wsdb.stored_builds(db4)
    assert [(b["n"], b["c"]) for b in builds] == [(4, 2), (4, 3), (4, 4)]
    levels = wsdb.stored_levels(4, 4, db4)
    assert sum(r["states"] for r in levels) == wsdb.wrapslide(4, 4).states


def test_the_command_points_past_a_partial_tree_to_solve(tmp_path, run):
    """A state past the tree gets its proven 'more than', and (on stderr,
    once for a batch) the command that answers with a sequence."""
    db = tmp_path / "p.sqlite"
    wsdb.build(4, 4, db=db, max_depth=3)
    far = run("lookup", "1212/3434/1243/3421", "--db", db)
    assert far.exit_code == 0 and far.stdout.strip().endswith("more than 3 moves (beyond the stored partial tree)")
    assert far.stderr.count("wsdb solve STATE") == 1
    near = run("lookup", "1122/1122/3344/3344", "--db", db)
    assert near.exit_code == 0 and near.stderr == ""
    as_json = run("lookup", "1212/3434/1243/3421", "--db", db, "--json")
    assert json.loads(as_json.stdout)["more_than"] == 3 and as_json.stderr == ""
