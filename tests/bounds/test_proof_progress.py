"""How far each kept proof got (wsdb/stats/proof_progress.py, `wsdb bounds
proofs`): read back from the shares of real proofs on a 4x4 four-colour
partial tree, against what each proof itself reported and the brute-force
distance."""

import json
import shutil

import pytest

from wsdb.db.store import Store
from wsdb.puzzle import format_state, random_states, wrapslide
from wsdb.bounds.proof import at_least
from wsdb.solver.settings import PROOF_SHARES
from wsdb.bounds.proof_progress import kept_proofs


@pytest.fixture
def db(partial4, tmp_path):
    """A copy of the 4x4 four-colour partial tree's database, to keep shares in."""
    copy = tmp_path / "w.sqlite"
    shutil.copy(partial4[0], copy)
    return copy


@pytest.fixture(scope="module")
def deep(exact_distance):
    distance = exact_distance(4)
    states = [x for x in random_states(wrapslide(4, 4), 80, seed=47) if distance(x) > 7][:2]
    assert len(states) == 2
    return [(format_state(x), distance(x)) for x in states]


def test_a_proof_part_way_then_whole_then_answered(db, deep):
    (state, d), (other, e) = deep
    whole = at_least(state, d, Store.open(db, write=True), float("inf"))  # keeps nothing
    assert kept_proofs(Store.open(db)) == []
    cut = at_least(state, d, Store.open(db, write=True), whole.nodes / 2, keep=True)
    (p,) = kept_proofs(Store.open(db))
    assert (p.state, p.at_least, p.bound, p.done, p.shares, p.distance) == (
        state,
        cut.lower,
        cut.lower,
        PROOF_SHARES - cut.left,
        PROOF_SHARES,
        None,
    )
    at_least(state, d, Store.open(db, write=True), float("inf"), keep=True)
    (p,) = kept_proofs(Store.open(db))
    assert (p.at_least, p.bound, p.distance) == (d, None, None) and p.seconds > 0 and p.nodes > 0
    at_least(other, e + 2, Store.open(db, write=True), float("inf"), keep=True)
    proofs = {p.state: p for p in kept_proofs(Store.open(db), 4, 4)}
    assert proofs[other].distance == e and proofs[other].at_least == e
    assert kept_proofs(Store.open(db), 6, 4) == []


def test_the_commands_say_what_is_kept(db, deep, run):
    state, d = deep[0]
    res = run("bounds", "proofs", "--db", db)
    assert res.exit_code == 2 and "no proof kept" in res.stderr and len(res.stderr.strip().splitlines()) == 1
    run("bounds", "prove", state, "--at-least", d, "--effort", 0.002, "--db", db, "-q")
    row = json.loads(run("bounds", "proofs", "--db", db, "--json").stdout)
    assert row["state"] == state and row["bound"] == row["at_least"] and 0 < row["done"] < row["shares"]
    text = run("bounds", "proofs", "--db", db).output
    assert f"bound {row['bound']}: {row['done']} of {row['shares']} shares kept, about " in text
    assert "left at their pace" in text
    assert "1 proof part-way through a bound" in run("bounds", "--db", db).output
