"""A proof's bounds searched share by share and kept (wsdb/bounds/shares.py,
`wsdb bounds prove --at-least K` resuming): checked against the whole
iteration and the brute-force distance on a 4x4 four-colour partial tree."""

import json
import shutil

import pytest
import sqlalchemy as sa

from wsdb.db.store import Store
from wsdb.puzzle import format_state, random_states, wrapslide
from wsdb.solver import effort
from wsdb.solver.ida import search_bound
from wsdb.bounds.proof import at_least
from wsdb.solver.settings import PROOF_SHARES, SPREAD_SPLIT
from wsdb.bounds.shares import ShareResult, combine, search_here

from ..conftest import PARTIAL_DEPTH


@pytest.fixture(scope="module")
def deep(exact_distance):
    distance = exact_distance(4)
    states = [x for x in random_states(wrapslide(4, 4), 80, seed=47) if distance(x) > PARTIAL_DEPTH + 3][:4]
    assert states
    return [(x, distance(x)) for x in states]


@pytest.fixture
def db(partial4, tmp_path):
    """A copy of the partial tree's database, to keep shares in."""
    copy = tmp_path / "w.sqlite"
    shutil.copy(partial4[0], copy)
    return copy


def test_shares_in_one_process_search_the_bound_whole(partial4, deep):
    # the shares run one after another with one visit table, and give what each share alone gives:
    # an answer in the same shares, of the distance, and the whole iteration's next bound
    _, _, guide = partial4
    for cells, d in deep:
        for bound in range(PARTIAL_DEPTH + 1, d + 1):
            whole, nxt, _ = search_bound(guide, cells, bound, effort.NEVER)
            alone = [search_bound(guide, cells, bound, effort.NEVER, i, 7, SPREAD_SPLIT) for i in range(7)]
            got = []
            assert not search_here(guide, cells, bound, effort.NEVER, 7, list(range(7)), got.append)
            first = next((i for i, (f, _, _) in enumerate(alone) if f is not None), None)
            assert [r.share for r in got] == list(range(7 if first is None else first + 1))
            found, after = combine({r.share: r for r in got})
            assert (found is None) == (whole is None) == (bound < d)
            if found is None:
                assert after == nxt
            else:
                assert found.length == after == d and found.path == alone[first][0].path


def test_combine_takes_the_lowest_share_of_the_shortest_answers(partial4, deep):
    _, _, guide = partial4
    cells, d = deep[0]
    found, _, _ = search_bound(guide, cells, d, effort.NEVER)
    results = {i: ShareResult(i, found if i in (2, 5) else None, d + 1, 1.0, 0.1) for i in range(6)}
    for order in (list(results.items()), list(reversed(results.items()))):
        got, length = combine(dict(order))
        assert got is found and length == d
    assert combine({i: ShareResult(i, None, 9 + i % 2, 1.0, 0.1) for i in range(4)}) == (None, 9)


def _rows(db):
    with sa.create_engine(f"sqlite:///{db}").connect() as conn:
        return [dict(r._mapping) for r in conn.execute(sa.text("select * from proof_shares order by bound, share"))]


def test_a_proof_cut_by_its_effort_resumes_where_it_stopped(db, deep):
    state = format_state(deep[0][0])
    d = deep[0][1]
    whole = at_least(state, d, Store.open(db, write=True), float("inf"))  # keeps nothing
    assert whole.lower == d and not _rows(db)
    cut = at_least(state, d, Store.open(db, write=True), whole.nodes / 2, keep=True)
    kept = _rows(db)
    assert cut.timed_out and cut.lower < d and 0 < cut.left < PROOF_SHARES
    assert len([r for r in kept if r["bound"] == cut.lower]) == PROOF_SHARES - cut.left
    assert all(r["answer"] is None and r["shares"] == PROOF_SHARES for r in kept)
    rest = at_least(state, d, Store.open(db, write=True), float("inf"), keep=True)
    assert rest.lower == d and rest.found is None and rest.reused == len(kept)
    assert rest.nodes < whole.nodes  # the kept shares were not searched again
    again = at_least(state, d, Store.open(db, write=True), float("inf"), keep=True)
    assert again.lower == d and again.nodes == 0 and again.reused == len(_rows(db))


def test_a_kept_answer_is_the_optimal_answer(db, deep):
    p = wrapslide(4, 4)
    cells, d = deep[1]
    state = format_state(cells)
    first = at_least(state, d + 2, Store.open(db, write=True), float("inf"), keep=True)
    assert first.lower == first.found.length == d and any(r["answer"] for r in _rows(db))
    again = at_least(state, d + 2, Store.open(db, write=True), float("inf"), keep=True)
    assert again.nodes == 0 and again.moves == first.moves and p.is_solved(p.apply(cells, again.moves))


def test_shares_of_another_scheme_are_searched_again(db, deep):
    state, d = format_state(deep[0][0]), deep[0][1]
    at_least(state, d, Store.open(db, write=True), float("inf"), keep=True)
    with sa.create_engine(f"sqlite:///{db}").begin() as conn:
        conn.execute(sa.text("update proof_shares set scheme = 'split 9, streams 1'"))
    again = at_least(state, d, Store.open(db, write=True), float("inf"), keep=True)
    assert again.reused == 0 and again.nodes > 0 and again.lower == d


def test_the_command_resumes_and_says_what_is_left(db, deep, run):
    state, d = format_state(deep[0][0]), deep[0][1]
    cut = run("bounds", "prove", state, "--at-least", d, "--effort", 0.002, "--db", db)
    assert cut.exit_code == 0 and "the effort ran out" in cut.output
    assert "the same command goes on from them" in cut.output
    res = run("bounds", "prove", state, "--at-least", d, "--db", db, "--json")
    row = json.loads(res.stdout)  # progress lines (a slow machine) go to stderr
    assert res.exit_code == 0 and row["value"] == d and row["witness"]["shares_reused"] > 0


def test_a_fresh_proof_that_disagrees_with_a_kept_share_is_refused(db, deep, run):
    state, d = format_state(deep[0][0]), deep[0][1]
    assert run("bounds", "prove", state, "--at-least", d, "--db", db, "-q").exit_code == 0
    assert run("bounds", "prove", state, "--at-least", d, "--db", db, "--fresh", "-q").exit_code == 0
    with sa.create_engine(f"sqlite:///{db}").begin() as conn:  # a kept share says it has an answer
        conn.execute(
            sa.text("""update proof_shares set answer = '{"path": [0], "meet": null, "rest": 0}'
                                where share = 3""")
        )
    res = run("bounds", "prove", state, "--at-least", d, "--db", db, "--fresh", "-q")
    assert res.exit_code == 1 and "another result" in res.stderr and len(res.stderr.strip().splitlines()) == 1


def test_fresh_is_for_at_least(db, deep, run):
    res = run("bounds", "prove", format_state(deep[0][0]), "--fresh", "--db", db)
    assert res.exit_code == 2 and "--fresh is for --at-least" in res.stderr
