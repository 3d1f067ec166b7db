"""A state proven at least K moves from solved (wsdb/bounds/proof.py,
`wsdb bounds prove --at-least`): checked against brute-force distances on
a 4x4 four-colour partial tree."""

import json

import pytest

import wsdb
from wsdb.db.store import Store
from wsdb.puzzle import format_state, random_states, wrapslide
from wsdb.bounds.proof import at_least


@pytest.fixture(scope="module")
def partial(tmp_path_factory):
    db = tmp_path_factory.mktemp("proof") / "partial.sqlite"
    wsdb.build(4, 2, db=db)
    wsdb.build(4, 4, db=db, max_depth=4)
    return db


@pytest.fixture(scope="module")
def deep(exact_distance):
    distance = exact_distance(4)
    states = [x for x in random_states(wrapslide(4, 4), 60, seed=21) if distance(x) > 6][:6]
    assert states
    return [(format_state(x), distance(x)) for x in states]


def test_at_least_the_distance_is_proven_without_an_answer(partial, deep):
    for state, d in deep:
        proof = at_least(state, d, Store.open(partial), float("inf"))
        assert proof.lower == d and proof.found is None and not proof.timed_out


def test_past_the_distance_it_finds_the_optimal_answer(partial, deep):
    p = wrapslide(4, 4)
    for state, d in deep:
        proof = at_least(state, d + 3, Store.open(partial), float("inf"))
        assert proof.lower == proof.found.length == len(proof.moves) == d
        assert p.is_solved(p.apply(wsdb.parse_state(state)[1], proof.moves))


def test_out_of_effort_the_bound_is_what_was_searched(partial, deep):
    state, d = deep[0]
    proof = at_least(state, d, Store.open(partial), 1.0)
    assert proof.timed_out and proof.lower < d


def test_the_command_stores_the_bound(partial, deep, run, tmp_path):
    import shutil

    db = tmp_path / "w.sqlite"
    shutil.copy(partial, db)
    state, d = deep[0]
    res = run("bounds", "prove", state, "--at-least", d, "--db", db)
    assert res.exit_code == 0 and f"God number >= {d} (no answer of fewer moves)" in res.output
    rows = [json.loads(x) for x in run("bounds", "--n", 4, "--c", 4, "--db", db, "--json").output.splitlines()]
    assert any(r["value"] == d and r["command"] == f"wsdb bounds prove {state} --at-least {d}" for r in rows)


@pytest.mark.parametrize("extra,says", [(["--method", "meet"], "not by meet"), (["--at-least", "0"], "from 1 to 100")])
def test_bad_requests_are_one_line(partial, deep, run, extra, says):
    args = ["bounds", "prove", deep[0][0], "--db", partial] + (["--at-least", 9] if "--at-least" not in extra else [])
    res = run(*args, *extra)
    assert res.exit_code == 2 and says in res.stderr and len(res.stderr.strip().splitlines()) == 1


def test_a_state_the_tree_holds_is_sent_to_lookup(partial, run):
    p = wrapslide(4, 4)
    near = format_state(p.apply(p.solved[0], ["T1", "L2"]))
    res = run("bounds", "prove", near, "--at-least", 9, "--db", partial)
    assert res.exit_code == 2 and "wsdb lookup" in res.stderr


@pytest.mark.parametrize("state", ["11223344/" * 7 + "11223344", "111222/111222/111222/333333/333333/333333"])
def test_a_grid_without_its_tables_is_one_line_before_any_work(partial, run, state):
    res = run("bounds", "prove", state, "--at-least", 20, "--db", partial)
    assert res.exit_code == 2 and "--at-least needs the" in res.stderr and len(res.stderr.strip().splitlines()) == 1
