"""A bound spread over Dask workers (wsdb/bounds/spread.py, `wsdb bounds
prove --at-least K --engine dask`): the shares of an iteration search it
whole, and a proof over workers equals the one-process proof and the
brute-force distance (4x4 four colours, the tree stored to depth 4)."""

import json

import pytest

from wsdb.puzzle import format_state, random_states, wrapslide
from wsdb.solver import effort
from wsdb.solver.ida import search_bound
from wsdb.solver.settings import SPREAD_SPLIT
from wsdb.bounds.spread import Spread

from ..conftest import PARTIAL_DEPTH


@pytest.fixture(scope="module")
def deep(exact_distance):
    distance = exact_distance(4)
    states = [x for x in random_states(wrapslide(4, 4), 80, seed=31) if distance(x) > PARTIAL_DEPTH + 2][:6]
    assert states
    return [(x, distance(x)) for x in states]


@pytest.mark.parametrize("shares", [2, 5])
def test_shares_of_a_bound_search_it_whole(partial4, deep, shares):
    # every bound from the tree's height up to the distance: an answer in some share exactly where the
    # whole iteration has one, and the smallest next bound of the shares is the whole one's
    _, _, guide = partial4
    for cells, d in deep:
        for bound in range(PARTIAL_DEPTH + 1, d + 1):
            whole, nxt, _ = search_bound(guide, cells, bound, effort.NEVER)
            parts = [search_bound(guide, cells, bound, effort.NEVER, i, shares, SPREAD_SPLIT) for i in range(shares)]
            assert (whole is not None) == (bound == d)
            assert any(f is not None for f, _, _ in parts) == (whole is not None)
            if whole is None:
                assert min(n for _, n, _ in parts) == nxt
            else:
                assert all(f.length == d for f, _, _ in parts if f is not None)


def test_tasks_in_one_thread_carry_visits_and_give_each_shares_answer(partial4, deep):
    # a worker thread's tasks of one bound share their visit tables: each still finds an answer exactly
    # where its share alone does, and the least next bound is the whole iteration's
    from wsdb.solver.guide import guide_for
    from wsdb.bounds.spread import share_task

    db = partial4[0]
    guide = guide_for(wrapslide(4, 4), partial4[1], pairs=True)
    for cells, d in deep[:3]:
        for bound in (d - 1, d):
            tasks = [share_task(str(db), 4, 4, cells, bound, i, 6) for i in range(6)]
            alone = [search_bound(guide, cells, bound, effort.NEVER, i, 6, SPREAD_SPLIT) for i in range(6)]
            assert [a is not None for a, *_ in tasks] == [f is not None for f, _, _ in alone]
            if bound < d:
                assert min(t[1] for t in tasks) == search_bound(guide, cells, bound, effort.NEVER)[1]


def test_a_share_searches_part_of_the_bound(partial4, deep):
    # one share of three does less than the whole iteration, and the three more than it: each searches
    # the levels above the split again, and its visit table sees only its own part below
    _, _, guide = partial4
    cells, d = deep[0]
    with effort.metered() as whole:
        search_bound(guide, cells, d - 1, effort.NEVER, 0, 1, SPREAD_SPLIT)
    with effort.metered() as one:
        search_bound(guide, cells, d - 1, effort.NEVER, 0, 3, SPREAD_SPLIT)
    with effort.metered() as all_three:
        for i in range(3):
            search_bound(guide, cells, d - 1, effort.NEVER, i, 3, SPREAD_SPLIT)
    assert one.spent < whole.spent < all_three.spent


@pytest.fixture(scope="module")
def threads():
    """A Dask cluster of one one-thread worker in this process (the kernels are compiled already; one
    thread, since numba's default threading layer runs one parallel kernel at a time in a process)."""
    from dask.distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None)
    client = Client(cluster)
    yield client
    client.close()
    cluster.close()


@pytest.mark.parametrize("picked", [slice(0, 1), pytest.param(slice(1, 3), marks=pytest.mark.slow, id="two-more")])
def test_a_proof_over_workers_is_the_one_process_proof(partial4, deep, threads, picked):
    from wsdb.db.store import Store
    from wsdb.bounds.proof import at_least

    db, _, _ = partial4
    p = wrapslide(4, 4)
    for cells, d in deep[picked]:  # one deep state by default: 5 s each
        state = format_state(cells)
        for k in (d, d + 2):  # proven without an answer; past the distance, the optimal answer
            spread = at_least(state, k, Store.open(db), float("inf"), spread=Spread(threads, str(db)))
            alone = at_least(state, k, Store.open(db), float("inf"))
            assert spread.lower == alone.lower == d
            assert (spread.found is None) == (alone.found is None) == (k == d)
            if spread.found is not None:
                assert len(spread.moves) == d and p.is_solved(p.apply(cells, spread.moves))


def test_shares_kept_over_workers_resume_in_one_process(partial4, deep, threads, tmp_path):
    # the client keeps each share as it finishes; the same proof in one process then searches nothing
    import shutil

    from wsdb.db.store import Store
    from wsdb.bounds.proof import at_least

    db = tmp_path / "w.sqlite"
    shutil.copy(partial4[0], db)
    cells, d = deep[0]
    state = format_state(cells)
    spread = at_least(state, d, Store.open(db, write=True), float("inf"), spread=Spread(threads, str(db)), keep=True)
    alone = at_least(state, d, Store.open(db, write=True), float("inf"), keep=True)
    assert spread.lower == alone.lower == d and spread.reused == 0
    assert alone.nodes == 0 and alone.reused > 0


def test_a_bound_is_cut_into_shares_per_worker_thread(threads):
    assert Spread(threads, "unused").shares() == 1 * 4


@pytest.mark.slow  # a LocalCluster of its own: the library's proof over workers stays in the default run
@pytest.mark.integration
def test_the_command_proves_over_a_local_cluster(partial4, deep, run, tmp_path):
    import shutil

    db = tmp_path / "w.sqlite"
    shutil.copy(partial4[0], db)
    cells, d = deep[0]
    state = format_state(cells)
    res = run("bounds", "prove", state, "--at-least", d, "--engine", "dask", "--workers", 2, "--db", db, "-q")
    assert res.exit_code == 0, res.stderr
    assert f"God number >= {d} (no answer of fewer moves)" in res.output
    rows = [json.loads(x) for x in run("bounds", "--n", 4, "--c", 4, "--db", db, "--json").output.splitlines()]
    assert any(r["value"] == d for r in rows)


@pytest.mark.parametrize(
    "extra,says",
    [
        (["--workers", "2"], "--workers is for the dask engine"),
        (["--engine", "dask", "--scheduler", "tcp://h:1", "--workers", "2"], "a --scheduler has its own workers"),
        (["--engine", "dask", "--effort", "5"], "runs until done"),
    ],
)  # an unreachable scheduler: the same connect as the build's (tests/db/test_distributed.py)
def test_bad_dask_requests_are_one_line(partial4, deep, run, extra, says):
    res = run("bounds", "prove", format_state(deep[0][0]), "--at-least", 9, "--db", partial4[0], *extra)
    assert res.exit_code == 2 and says in res.stderr and len(res.stderr.strip().splitlines()) == 1


def test_the_dask_engine_is_for_at_least(partial4, deep, run):
    res = run("bounds", "prove", format_state(deep[0][0]), "--engine", "dask", "--db", partial4[0])
    assert res.exit_code == 2 and "--at-least" in res.stderr and len(res.stderr.strip().splitlines()) == 1
