"""The solver facade (wsdb/solver/solve.py): exact where the database
covers the state, verified and honest everywhere else."""

import pytest

import wsdb
from wsdb.puzzle import format_state, random_states, wrapslide


@pytest.mark.parametrize("c", [2, 3, 4])
def test_auto_is_optimal_where_the_tree_is_complete(db4, exact_distance, c):
    distance = exact_distance(c)
    p = wrapslide(4, c)
    for cells in random_states(p, 20, seed=10 + c):
        sol = wsdb.solve(format_state(cells), db=db4)
        assert sol.method == "stored" and sol.optimal
        assert sol.length == sol.lower_bound == distance(cells) == len(sol.moves)
        assert p.is_solved(p.apply(cells, sol.moves))


@pytest.mark.parametrize("c", [2, 3, 4])
def test_beam_is_sound_and_its_bound_proven(db4, exact_distance, c):
    distance = exact_distance(c)
    p = wrapslide(4, c)
    for cells in random_states(p, 10, seed=20 + c):
        sol = wsdb.solve(format_state(cells), db=db4, method="beam")
        assert p.is_solved(p.apply(cells, sol.moves)) and len(sol.moves) == sol.length
        assert sol.lower_bound <= distance(cells) <= sol.length
        assert sol.optimal == (sol.length == sol.lower_bound)


def test_partial_tree_hands_over_and_bounds(tmp_path, exact_distance):
    """With the 4x4 four-colour tree stored to depth 5 only, a deeper state
    gets lower bound >= 6 and a verified sequence (exact where meet in the
    middle meets the tree), and a beam state found in the tree is finished
    with its stored optimal tail."""
    db = tmp_path / "partial.sqlite"
    wsdb.build(4, 2, db=db)
    wsdb.build(4, 4, db=db, max_depth=5)
    distance = exact_distance(4)
    p = wrapslide(4, 4)
    deep = [x for x in random_states(p, 40, seed=3) if distance(x) > 5][:8]
    for cells in deep:
        for method in ("auto", "beam"):
            sol = wsdb.solve(format_state(cells), db=db, method=method)
            assert sol.method in ("beam", "meet in the middle", "beam (after meet in the middle)")
            assert 6 <= sol.lower_bound <= distance(cells) <= sol.length
            assert p.is_solved(p.apply(cells, sol.moves))
            if sol.method == "meet in the middle":
                assert sol.optimal and sol.length == distance(cells)
    assert "build" not in (sol.note or "")  # both trees the search reads are stored
    shallow = p.apply(p.solved[0], ["T1", "L2", "B3", "R1"])  # at most 4 moves from solved
    sol = wsdb.solve(format_state(shallow), db=db)
    assert sol.method == "stored" and sol.length == distance(shallow)


@pytest.mark.parametrize("c", [2, 3, 4])
def test_8x8_without_any_database_terminates_verified(tmp_path, monkeypatch, c):
    monkeypatch.chdir(tmp_path)  # no db/wsdb.sqlite here
    monkeypatch.delenv("WSDB_DB", raising=False)
    p = wrapslide(8, c)
    cells = random_states(p, 1, seed=c)[0]
    sol = wsdb.solve(format_state(cells), time_limit=10)
    assert p.is_solved(p.apply(cells, sol.moves))
    assert sol.lower_bound >= 1 and not sol.optimal
    assert not (tmp_path / "db").exists()  # nothing written
    # the answer names every tree its search would read: the two-colour one, each phase's
    assert [f"`wsdb build --n 8 --c {k}`" in sol.note for k in range(2, 5)] == [True] * (c - 1) + [False] * (4 - c)


def test_time_limit_still_gives_a_verified_sequence(db4):
    p = wrapslide(8, 4)
    cells = random_states(p, 1, seed=9)[0]
    sol = wsdb.solve(format_state(cells), db=db4, time_limit=0.001)
    assert sol.timed_out and "exchange" in sol.method
    assert p.is_solved(p.apply(cells, sol.moves))


def test_solved_state_and_length_only(db4):
    sol = wsdb.solve("1122/1122/2222/2222", db=db4)
    assert sol.length == 0 and sol.moves == [] and sol.optimal
    p = wrapslide(4, 4)
    cells = random_states(p, 1, seed=1)[0]
    full = wsdb.solve(format_state(cells), db=db4)
    short = wsdb.solve(format_state(cells), db=db4, length_only=True)
    assert short.moves is None and short.length == full.length


def test_bad_arguments(db4):
    with pytest.raises(wsdb.WsdbError, match="unknown method"):
        wsdb.solve("1122/1122/3344/3434", db=db4, method="magic")
    with pytest.raises(wsdb.WsdbError, match="time limit"):
        wsdb.solve("1122/1122/3344/3434", db=db4, time_limit=0)
    with pytest.raises(wsdb.WsdbError, match="state 2"):
        wsdb.solve_many(["1122/1122/3344/3434", "12"], db=db4)


@pytest.mark.parametrize("method", ["auto", "beam", "thesis"])
def test_solved_starts_need_no_search_even_out_of_time(method, tmp_path, monkeypatch):
    """Every 2x2 state is solved (each quadrant is one cell); found by the
    API fuzzer, where a 2x2 state with no time left reached the cell-exchange
    fallback, which needs n >= 4. Without a database (an empty folder)."""
    monkeypatch.chdir(tmp_path)
    for c in (2, 3, 4):
        p = wrapslide(2, c)
        for cells in random_states(p, 5, seed=c):
            sol = wsdb.solve(format_state(cells), method=method, time_limit=1e-9)
            assert sol.length == 0 and sol.moves == [] and sol.optimal and sol.method == "solved"
    four = wrapslide(4, 4)
    sol = wsdb.solve(format_state(four.solved[7]), method=method, time_limit=1e-9)
    assert sol.length == 0 and sol.optimal
    assert not (tmp_path / "db").exists()  # nothing written


@pytest.mark.parametrize("n", [10, 12, 16])
def test_grids_past_the_solvers_reach_are_one_line(run, n, tmp_path):
    # n = 10..16 ended in an OverflowError traceback (CLI and API)
    p = wrapslide(n, 2)
    state = format_state(random_states(p, 1, seed=n)[0])
    res = run("solve", state, "--db", tmp_path / "none.sqlite", "--time-limit", 1)
    assert res.exit_code == 2 and "up to 8x8" in res.stderr and len(res.stderr.strip().splitlines()) == 1
