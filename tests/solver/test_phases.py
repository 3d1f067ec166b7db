"""Phases through coarser colourings (wsdb/solver/phases.py): coarsening
keeps the grid a Wrapslide grid, every answer solves its state and is never
shorter than the exact distance (complete 4x4 trees), on complete and on
shallow partial trees (so the beam, meet in the middle and the exchange
fallback all run)."""

import numpy as np
import pytest

import wsdb
from wsdb.db.store import Store
from wsdb.puzzle import format_state, random_states, wrapslide
from wsdb.solver import effort
from wsdb.solver.guide import guide_for
from wsdb.solver.phases import coarsen, last_phase_again, phase_orders, relabel_back, run_phases
from wsdb.solver.settings import FIRST_PHASE_MEET_CHILDREN, FIRST_PHASE_WAYS, MIDDLE_PHASE_WAYS


@pytest.mark.parametrize("n,c", [(4, 3), (4, 4), (6, 4), (8, 3), (8, 4)])
def test_coarsening_gives_the_coarser_grids_counts_and_solved_states(n, c):
    fine = wrapslide(n, c)
    for k in range(2, c):
        coarse = wrapslide(n, k)
        for cells in random_states(fine, 20, seed=k):
            counts = np.bincount(coarsen(cells, k), minlength=k)
            assert tuple(counts) == tuple(coarse.counts)
        # a solved fine state is solved coarse: the phases can only move forward
        for solved in fine.solved:
            assert coarse.is_solved(coarsen(solved, k))


def test_relabel_back_undoes_a_colour_permutation():
    rng = np.random.default_rng(3)
    for _ in range(20):
        order = rng.permutation(4).astype(np.uint8)
        cells = rng.integers(0, 4, 64).astype(np.uint8)
        assert (relabel_back(order[cells], order) == cells).all()


@pytest.mark.parametrize("c,count", [(3, 2), (4, 12)])
def test_phase_orders_gather_every_pair_of_single_colours_first(c, count):
    """Each order is a relabelling (a permutation of the colours) that
    moves two colours with q cells to 0 and 1, every such pair once."""
    counts = wrapslide(8, c).counts
    pairs = set()
    for order in phase_orders(wrapslide(8, c)):
        assert sorted(order.tolist()) == list(range(c))
        first, second = (int(np.flatnonzero(order == k)[0]) for k in (0, 1))
        assert counts[first] == counts[second] == 16
        pairs.add((first, second))
    assert len(pairs) == len(phase_orders(wrapslide(8, c))) == count
    assert len({a for a, _ in pairs}) == (4 if c == 4 else 2)
    if c == 4:  # the first four orders each gather a different colour first
        assert len({int(np.flatnonzero(o == 0)[0]) for o in phase_orders(wrapslide(8, c))[:4]}) == 4


def _partial_db(tmp_path, depth):
    db = tmp_path / f"phases{depth}.sqlite"
    for c in (2, 3, 4):
        wsdb.build(4, c, db=db, max_depth=depth)
    return db


def _whole(p, db, found):
    """Every move of ``found`` by name: its path, then the tail the
    database stores from where it met the tree."""
    tail = wsdb.lookup(format_state(found.meet, 4), db=db).moves if found.rest else []
    return [p.move_names[m] for m in found.path] + tail


@pytest.mark.parametrize("depth", [None, 2])
def test_every_answer_solves_and_is_never_below_the_exact_distance(tmp_path, db4, exact_distance, depth):
    db = db4 if depth is None else _partial_db(tmp_path, depth)
    store = Store.open(db)
    for c in (3, 4):
        p = wrapslide(4, c)
        guides = {k: guide_for(wrapslide(4, k), store) for k in range(2, c + 1)}
        distance = exact_distance(c)
        finished = 0
        for first, cells in enumerate(random_states(p, 12, seed=40 + c)):
            order = np.arange(c, dtype=np.uint8)
            order[[0, first % (c - 1)]] = order[[first % (c - 1), 0]]
            chain = run_phases(p, cells, guides.__getitem__, store, effort.NEVER, order)
            if chain.found is None:  # a phase failed: where it got to is real
                assert chain.reached
                for state, path in chain.reached:
                    assert (p.apply(cells, [p.move_names[m] for m in path]) == state).all()
                continue
            finished += 1
            found = chain.found
            tail = []
            if found.rest:
                tail = wsdb.lookup(format_state(found.meet, 4), db=db).moves
                assert len(tail) == found.rest
            whole = [p.move_names[m] for m in found.path] + tail
            assert p.is_solved(p.apply(cells, whole))
            assert len(whole) == found.length >= distance(cells)
        assert finished >= 6


def test_solve_with_phases_answers_every_state(tmp_path, exact_distance):
    db = _partial_db(tmp_path, 2)
    p = wrapslide(4, 4)
    cells = random_states(p, 8, seed=9)
    states = [format_state(x, 4) for x in cells]
    for x, sol in zip(cells, wsdb.solve_many(states, db=db, method="phases", time_limit=5)):
        assert p.is_solved(p.apply(x, sol.moves))
        assert sol.lower_bound <= exact_distance(4)(x) <= sol.length
        assert sol.method.startswith("phases")


def test_phases_need_the_coarser_trees(tmp_path):
    db = tmp_path / "only4.sqlite"
    wsdb.build(4, 4, db=db, max_depth=3)
    sol = wsdb.solve("1234/3412/2143/4321", db=db, method="phases", time_limit=5)
    assert sol.method.startswith("beam")  # no 4x4 two- and three-colour trees: the beam instead


def test_a_stalled_phase_is_repaired_in_its_own_grid_and_the_phases_go_on(tmp_path, monkeypatch):
    import wsdb.solver.phases as phases

    db = _partial_db(tmp_path, 2)
    store = Store.open(db)
    real = phases.beam_ways

    def stalls_in_two_colours(guide, start, width, deadline, ways, **options):
        return ([], [(start[0], [])]) if guide.c == 2 else real(guide, start, width, deadline, ways, **options)

    monkeypatch.setattr(phases, "beam_ways", stalls_in_two_colours)
    monkeypatch.setattr(phases, "meet_in_the_middle", lambda *args: (None, 0, False))
    monkeypatch.setattr(phases, "meet_ways", lambda *args: ([], 0, False))
    p, two = wrapslide(4, 3), wrapslide(4, 2)
    guides = {k: guide_for(wrapslide(4, k), store) for k in (2, 3)}
    tried = 0
    for cells in random_states(p, 6, seed=17):
        if two.is_solved(coarsen(cells, 2)):
            continue
        tried += 1
        chain = run_phases(p, cells, guides.__getitem__, store, effort.NEVER)
        assert chain.phases_done >= 1  # without the repair the chain would end at once
        if chain.found is None:  # the last phase stalled: it starts from a repaired first phase
            state, path = chain.reached[0]
            assert two.is_solved(coarsen(state, 2))
            assert (p.apply(cells, path) == state).all()
        else:
            state = p.apply(cells, chain.found.path)
            assert chain.found.rest or p.is_solved(state)
    assert tried >= 4


def test_the_first_phase_gathers_a_colour_optimally(tmp_path, exact_distance):
    """The first phase is the two-colour grid: its answers (several ways,
    from meet in the middle, where it has them), from the tree or meet in
    the middle, are that grid's exact distance, and so is the lower bound
    it reports."""
    from wsdb.solver.phases import _first_phase

    db = _partial_db(tmp_path, 2)
    store = Store.open(db)
    guide = guide_for(wrapslide(4, 2), store)
    two = wrapslide(4, 2)
    distance = exact_distance(2)
    seen, several = set(), 0
    four = wrapslide(4, 4)
    near = four.apply(four.solved[0], ["T1"])  # one move out: the tree holds its coarse state
    for cells in [near, *random_states(four, 30, seed=17)]:
        start = coarsen(cells, 2)
        ways, lower = _first_phase(guide, start, effort.NEVER, FIRST_PHASE_MEET_CHILDREN[3])
        assert ways and lower == distance(start)
        for found in ways:
            whole = found.moves(store, two, guide.endgame)
            assert two.is_solved(two.apply(start, whole)) and len(whole) == found.length == distance(start)
        seen.add(ways[0].path == [])
        several = max(several, len(ways))
    assert seen == {True, False}  # both held by the tree and met beyond it
    assert 1 < several <= FIRST_PHASE_WAYS


def test_orders_that_gather_the_same_colour_first_share_that_phase(tmp_path, monkeypatch):
    """With one ``firsts`` dict per state, the two-colour phase runs once
    per first colour (4 of the 12 orders), and every chain is the one it
    would be without the sharing."""
    import wsdb.solver.phases as phases

    db = _partial_db(tmp_path, 2)
    store = Store.open(db)
    p = wrapslide(4, 4)
    guides = {k: guide_for(wrapslide(4, k), store) for k in (2, 3, 4)}
    real, two_colour_runs = phases._gather_phase, []

    def counted(guide, *args):
        two_colour_runs.extend([guide.c] if guide.c == 2 else [])
        return real(guide, *args)

    monkeypatch.setattr(phases, "_gather_phase", counted)
    for cells in random_states(p, 1, seed=23):  # 2 s a state
        firsts: dict = {}
        for order in phase_orders(p):
            shared = run_phases(p, cells, guides.__getitem__, store, effort.NEVER, order, firsts=firsts)
            alone = run_phases(p, cells, guides.__getitem__, store, effort.NEVER, order)
            assert (shared.found is None) == (alone.found is None)
            if shared.found is not None:
                assert shared.found.path == alone.found.path and shared.found.rest == alone.found.rest
            assert shared.lower == alone.lower
        assert sorted(firsts) == [0, 1, 2, 3]
    assert len(two_colour_runs) == 4 + 12  # 4 shared, 12 alone


def test_a_run_capped_by_the_best_answer_so_far_never_returns_a_longer_one(tmp_path):
    """``shorter`` stops a run where it cannot beat the best answer: a
    capped run's answer is always shorter than the cap, and with the cap
    one above the uncapped answer's length the same beams find an answer
    again (where no phase needed meet in the middle or repairs, which a
    capped run skips), verified, and no longer."""
    db = _partial_db(tmp_path, 4)
    store = Store.open(db)
    p = wrapslide(4, 4)
    guides = {k: guide_for(wrapslide(4, k), store) for k in (2, 3, 4)}
    again = runs = 0
    for cells in random_states(p, 4, seed=29):
        for order in phase_orders(p)[:6]:
            free = run_phases(p, cells, guides.__getitem__, store, effort.NEVER, order, last_meet=False)
            if free.found is None:
                continue
            runs += 1
            length = free.found.length
            for cap in (length - 3, length, length + 1):
                capped = run_phases(
                    p, cells, guides.__getitem__, store, effort.NEVER, order, last_meet=False, shorter=cap
                )
                if capped.found is None:
                    continue
                found = capped.found
                whole = _whole(p, db, found)
                assert p.is_solved(p.apply(cells, whole)) and len(whole) == found.length < cap
                again += cap == length + 1
    assert runs >= 12 and again >= runs * 3 // 4


def test_the_last_phase_again_starts_where_the_runs_started_it_and_beats_the_cap(tmp_path):
    """Each run's ``last_ways`` lead from the state itself (relabelling
    colours does not change moves), and its answer took one of them; the
    last phase run again from every run's starts at once, however wide,
    returns only verified answers shorter than its cap, and none where the
    phases before it already reach the cap."""
    db = _partial_db(tmp_path, 4)
    store = Store.open(db)
    p = wrapslide(4, 4)
    guides = {k: guide_for(wrapslide(4, k), store) for k in (2, 3, 4)}
    runs = found_again = 0
    for cells in random_states(p, 4, seed=31):
        chains = [
            run_phases(p, cells, guides.__getitem__, store, effort.NEVER, order, last_meet=False)
            for order in phase_orders(p)[:4]
        ]
        chains = [chain for chain in chains if chain.found is not None]
        runs += len(chains)
        for chain in chains:
            assert chain.found.path[: len(chain.last_ways[0])] in chain.last_ways
        shortest = min(len(way) for chain in chains for way in chain.last_ways)
        assert last_phase_again(p, cells, chains, guides.__getitem__, effort.NEVER, 2000, shortest + 1) is None
        best = min(chain.found.length for chain in chains)
        for cap in (best - 2, best + 1):
            again = last_phase_again(p, cells, chains, guides.__getitem__, effort.NEVER, 2000, cap)
            if again is None:
                continue
            found_again += cap > best
            whole = _whole(p, db, again)
            assert p.is_solved(p.apply(cells, whole)) and len(whole) == again.length < cap
    assert runs >= 8 and found_again >= 3


def test_the_last_phase_starts_from_every_way_the_first_found(tmp_path):
    """On three colours the first phase's ways (all of one, optimal
    length) each end with the first colour gathered; the last phase starts
    from all of them, and the whole answer solves the state."""
    db = _partial_db(tmp_path, 2)
    store = Store.open(db)
    p, two = wrapslide(4, 3), wrapslide(4, 2)
    guides = {k: guide_for(wrapslide(4, k), store) for k in (2, 3)}
    several = 0
    for cells in random_states(p, 8, seed=41):
        chain = run_phases(p, cells, guides.__getitem__, store, effort.NEVER)
        paths = chain.last_ways
        assert len({len(path) for path in paths}) == 1 and len(paths) <= FIRST_PHASE_WAYS
        ends = {p.apply(cells, path).tobytes() for path in paths}
        assert len(ends) == len(paths)  # one way per end state
        assert all(two.is_solved(coarsen(p.apply(cells, path), 2)) for path in paths)
        several += len(paths) > 1
        if chain.found is not None:
            assert chain.found.path[: len(paths[0])] in paths
            state = p.apply(cells, chain.found.path)
            assert chain.found.rest or p.is_solved(state)
            if chain.found.rest:
                assert (state == chain.found.meet).all()
    assert several


def test_a_run_without_its_last_phase_finds_the_last_phases_starts(tmp_path):
    """On four colours a run told not to run its last phase stops with no
    answer after the middle phase, whose ways (up to ``MIDDLE_PHASE_WAYS``,
    all of one length, one per end state) each end with three colours
    solved; they are the starts the full run's last phase begins from."""
    db = _partial_db(tmp_path, 3)
    store = Store.open(db)
    p, three = wrapslide(4, 4), wrapslide(4, 3)
    guides = {k: guide_for(wrapslide(4, k), store) for k in (2, 3, 4)}
    several = 0
    for cells in random_states(p, 6, seed=43):
        for order in phase_orders(p)[:2]:
            short = run_phases(p, cells, guides.__getitem__, store, effort.NEVER, order, last=False)
            full = run_phases(p, cells, guides.__getitem__, store, effort.NEVER, order)
            assert short.found is None and short.phases_done == 2 and short.reached
            assert short.last_ways == full.last_ways
            paths = short.last_ways
            assert len({len(path) for path in paths}) == 1 and len(paths) <= MIDDLE_PHASE_WAYS
            assert len({p.apply(cells, path).tobytes() for path in paths}) == len(paths)
            assert all(three.is_solved(coarsen(order[p.apply(cells, path)], 3)) for path in paths)
            several += len(paths) > 1
    assert several
