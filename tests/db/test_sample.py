"""Random states drawn from a stored tree (wsdb/db/sample.py): with a depth,
every state at that distance from solved and nothing else, evenly. Checked
against the brute-force search over raw states (tests/bruteforce.py)."""

import json
import re
from collections import Counter

import numpy as np
import pytest

import wsdb
from wsdb.db.sample import TreeSampler
from wsdb.errors import WsdbError
from wsdb.puzzle import format_state, wrapslide


@pytest.mark.parametrize("c,depth", [(2, 3), (3, 10)])
def test_a_level_is_drawn_whole_and_evenly(db4, brute, c, depth):
    """4x4 two colours at 3 (196 states) and three colours at 10 (52, the
    antipodes; two interchangeable colours, so relabellings are drawn too)."""
    truth = brute(4, c)
    size = truth.states[depth]
    sampler = TreeSampler(wrapslide(4, c), db4, depth=depth)
    assert sampler.states == size
    drawn = Counter(map(bytes, sampler.draw(100 * size, np.random.default_rng(11))))
    assert len(drawn) == size  # every state of the level ...
    assert {truth.distance(np.frombuffer(s, np.uint8)) for s in drawn} == {depth}  # ... and no other
    assert min(drawn.values()) > 55 and max(drawn.values()) < 150  # 100 each expected


def test_four_colours_reach_every_relabelling(db4, thesis):
    """The 14 classes at the God number, 12 (thesis Table 3.4), spread over
    every colour permutation: each state drawn is at 12, and 20 draws a
    state find every state the stored level counts."""
    sampler = TreeSampler(wrapslide(4, 4), db4, depth=12)
    assert len(sampler.ends) == thesis["classes_per_level"]["4x4_c4"][12]
    drawn = {format_state(s, 4) for s in sampler.draw(20 * sampler.states, np.random.default_rng(5))}
    level = wsdb.stored_levels(4, 4, db4)[12]
    assert len(drawn) == sampler.states == level["states"]
    assert {a.distance for a in wsdb.lookup_many(sorted(drawn), db=db4)} == {12}


def test_a_partial_tree_serves_its_levels_and_says_where_it_stops(tmp_path):
    db = tmp_path / "p.sqlite"
    wsdb.build(4, 4, db=db, max_depth=4)
    states = TreeSampler(wrapslide(4, 4), db, depth=4).draw(50, np.random.default_rng(1))
    assert {a.distance for a in wsdb.lookup_many([format_state(s, 4) for s in states], db=db)} == {4}
    with pytest.raises(
        WsdbError,
        # the command names the database the user named, so that it can be copied as it stands
        match=rf"expected 0 to 4, where it stops \(`wsdb build --n 4 --c 4 --db {re.escape(str(db))} "
        r"--max-depth 5` grows it\)",
    ):
        TreeSampler(wrapslide(4, 4), db, depth=5)


def test_the_command(run, db4):
    res = run("random", "--n", 4, "--c", 3, "--depth", 9, "--count", 30, "--seed", 2, "--json", "--db", db4)
    rows = [json.loads(line) for line in res.stdout.splitlines()]
    assert res.exit_code == 0 and len(rows) == 30 and {r["depth"] for r in rows} == {9}
    again = run("random", "--n", 4, "--c", 3, "--depth", 9, "--count", 30, "--seed", 2, "--db", db4)
    assert again.stdout.split() == [r["state"] for r in rows]  # the seed repeats the draw
    looked = wsdb.lookup_many(again.stdout.split(), db=db4)
    assert {a.distance for a in looked} == {9}
    past = run("random", "--n", 4, "--c", 3, "--depth", 11, "--db", db4)
    assert past.exit_code == 2 and "expected 0 to 10, its God number" in past.stderr
