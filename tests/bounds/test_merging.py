"""The upper bound by merging colours and its moves-off check
(wsdb/bounds/merging.py, `wsdb bounds compute --merge`) on 4x4 grids, whose
God numbers and distances are known: the bound holds, its phases are exact,
and every move it takes off holds on every path by brute force."""

import itertools
import json
import math

import numpy as np
import pytest

import wsdb
from wsdb.db.store import Store
from wsdb.bounds.merging import by_merging

from .arrangements import arrangements, quadrant_cells


def test_the_merging_bound_from_the_command_is_stored_once(db, run):
    before = len(Store.open(db).bound_rows(4, 3))
    res = run("bounds", "compute", "--n", 4, "--c", 3, "--merge", "12", "--db", db, "--json")
    assert res.exit_code == 0
    rows = [json.loads(line) for line in res.stdout.splitlines()]
    merged_row = next(r for r in rows if r["command"].endswith("--merge 12"))
    assert merged_row["kind"] == "upper" and merged_row["value"] == 14 and merged_row["method"] == "phases"
    stored = Store.open(db).bound_rows(4, 3)
    assert len(stored) == before + len(rows)
    for bad in ("3", "13x", "123"):  # one colour, not digits, every colour: refused before any work
        res = run("bounds", "compute", "--n", 4, "--c", 3, "--merge", bad, "--db", db)
        assert res.exit_code == 2 and "--merge" in res.stderr and len(res.stderr.strip().splitlines()) == 1
    for bad in (
        ["--off", "2"],
        ["--merge", "12", "--off", "0"],  # --off without --merge, or out of range
        ["--tries", "5"],
        ["--merge", "12", "--tries", "0"],
        ["--solve-left", "5"],
        ["--merge", "12", "--solve-left", "-1"],
    ):
        res = run("bounds", "compute", "--n", 4, "--c", 3, *bad, "--db", db)
        assert res.exit_code == 2 and bad[-2] in res.stderr and len(res.stderr.strip().splitlines()) == 1
    res = run("bounds", "compute", "--n", 4, "--c", 3, "--fresh", "--db", db)  # nothing kept to check again
    assert res.exit_code == 2 and "--fresh" in res.stderr and len(res.stderr.strip().splitlines()) == 1
    assert len(Store.open(db).bound_rows(4, 3)) == len(stored)


def merged_goal_states(n, counts, together):
    """Every state of the grid with colours ``counts`` whose colours
    ``together`` (0-based), taken as one, fill whole quadrants with every
    other colour also in whole quadrants: written from the rules."""
    q = (n // 2) ** 2
    units = ["m"] * (sum(counts[k] for k in together) // q)
    for k, count in enumerate(counts):
        if k not in together:
            units += [k] * (count // q)
    out = []
    for layout in set(itertools.permutations(units)):
        cells = np.zeros(n * n, np.uint8)
        merged_cells = []
        for quad, unit in enumerate(layout):
            if unit == "m":
                merged_cells += quadrant_cells(n, quad)
            else:
                cells[quadrant_cells(n, quad)] = unit
        for fill in arrangements(len(merged_cells), list(together), [counts[k] for k in together]):
            cells[sorted(merged_cells)] = fill
            out.append(cells.copy())
    return np.unique(np.array(out), axis=0)


@pytest.mark.parametrize(
    "c, together, counts", [(3, "12", (4, 4, 8)), pytest.param(4, "12", (4, 4, 4, 4), marks=pytest.mark.slow)]
)
def test_the_merging_bound_holds_and_its_phases_are_exact(db, thesis, c, together, counts):
    from tests.bruteforce import levels_from
    from wsdb.puzzle.model import merged

    b = by_merging(Store.open(db), 4, c, together)
    assert b.kind == "upper" and b.method == "phases"
    assert b.value >= thesis["god_numbers"][f"4x4_c{c}"]
    first, second = b.witness["phases"]
    coarse = merged(wsdb.wrapslide(4, c), together)
    assert first["worst"] == len(levels_from(4, coarse.solved)) - 1
    states = merged_goal_states(4, counts, [int(k) - 1 for k in together])
    assert second["states"] == len(states)
    # the complete 4x4 trees, checked against the thesis' Table 3.4 elsewhere
    assert second["worst"] == max(a.distance for a in wsdb.lookup_many([wsdb.format_state(s) for s in states], db=db))
    # a move off where no state needs both worst cases (the next test)
    assert b.value == first["worst"] + second["worst"] - (b.witness["checks"][0]["unavoidable"] == 0)


def test_the_merging_bound_proves_its_second_phase_without_a_tree(tmp_path, brute):
    from tests.bruteforce import levels_from
    from wsdb.puzzle.model import merged

    path = tmp_path / "w.sqlite"
    wsdb.build(4, 2, db=path)  # no three-colour tree: each class is proven optimal
    b = by_merging(Store.open(path), 4, 3, "12")
    first, second = b.witness["phases"]
    assert second["by"] == "optimal"
    states = merged_goal_states(4, (4, 4, 8), [0, 1])
    assert second["worst"] == max(brute(4, 3).distance(s) for s in states)
    assert first["worst"] == len(levels_from(4, merged(wsdb.wrapslide(4, 3), "12").solved)) - 1


@pytest.mark.parametrize(
    "sample",
    [
        slice(None, None, 480),  # 4 of the 1,664 deepest states; 11 in the slow run
        pytest.param(slice(None, None, 160), marks=pytest.mark.slow, id="dense"),
    ],
)
def test_the_merging_bound_takes_a_move_off_where_no_state_needs_both_worst_cases(db, exact_distance, sample):
    from tests.bruteforce import level_states, rule_moves
    from wsdb.puzzle.model import merged

    b = by_merging(Store.open(db), 4, 3, "12")
    first, second = b.witness["phases"]
    assert b.witness["checks"][0]["unavoidable"] == 0
    assert b.value == first["worst"] + second["worst"] - 1
    # the claim, checked by brute force on a sample of the merged grid's deepest
    # states: every way to split their merged cells has a shortest path of the
    # merged grid that finishes closer than the second phase's worst
    coarse = merged(wsdb.wrapslide(4, 3), "12")
    levels = level_states(4, coarse.solved)
    assert len(levels) - 1 == first["worst"]
    depth = {lv.tobytes(): d for d, states in enumerate(levels) for lv in states}
    moves, distance = rule_moves(4), exact_distance(3)
    for x in levels[-1][sample]:
        merged_cells = np.flatnonzero(x == 0)
        for ones in itertools.combinations(merged_cells, 4):
            s = np.where(x == 0, 1, 2).astype(np.uint8)
            s[list(ones)] = 0
            frontier = {s.tobytes(): s}
            for d in range(first["worst"], 0, -1):  # along every shortest path of the merged grid
                frontier = {
                    t.tobytes(): t
                    for f in frontier.values()
                    for t in (f[m] for m in moves)
                    if depth[(t == 2).astype(np.uint8).tobytes()] == d - 1
                }
            assert min(distance(f) for f in frontier.values()) < second["worst"]


def test_one_path_each_cannot_avoid_the_worst_case(db):
    from wsdb.bounds.merging import merged_phase_states

    b = by_merging(Store.open(db), 4, 3, "12", tries=1, detours=False, solve_left=0)
    first, second = b.witness["phases"]
    both = b.witness["checks"][0]
    # one path sends as many liftings into the worst case as the goal it ends on
    # has worst states (here 8 on each goal of adjacent quadrants, none on the others)
    _, states = merged_phase_states(wsdb.wrapslide(4, 3), "12")
    distances = [a.distance for a in wsdb.lookup_many([wsdb.format_state(s) for s in states], db=db)]
    goals = [np.where(s == 2, 2, 0).tobytes() for s, d in zip(states, distances) if d == second["worst"]]
    per_goal = {goals.count(g) for g in set(goals)}
    assert 0 < both["unavoidable"] <= max(per_goal) * both["states"]
    assert both["unavoidable"] % math.gcd(*per_goal) == 0
    assert b.value == first["worst"] + second["worst"]
    # detours (a path one or two moves longer from each neighbour) leave fewer
    assert (
        by_merging(Store.open(db), 4, 3, "12", tries=1, solve_left=0).witness["checks"][0]["unavoidable"]
        < both["unavoidable"]
    )
    assert b.command.endswith("--merge 12 --tries 1 --solve-left 0")  # the stored command reruns the same check


def test_the_liftings_no_path_serves_are_listed_and_solved(db, exact_distance):
    from tests.bruteforce import level_states, rule_moves
    from wsdb.puzzle.model import merged

    b = by_merging(Store.open(db), 4, 3, "12", tries=2, solve_left=1000)
    first, second = b.witness["phases"]
    both = b.witness["checks"][0]
    solved = both["solved"]
    assert both["unavoidable"] == len(solved) == len({s["state"] for s in solved}) > 0
    assert both["left"] == 0 and b.value == first["worst"] + second["worst"] - 1
    assert b.command.endswith("--merge 12 --tries 2 --solve-left 1000")
    # more liftings left than it may solve: none solved, no move off
    from wsdb.notices import listening

    said = []
    with listening(said.append):
        fewer = by_merging(Store.open(db), 4, 3, "12", tries=2, solve_left=len(solved) - 1)
    assert "solved" not in fewer.witness["checks"][0] and fewer.value == b.value + 1
    # and it says so, with the --solve-left that would have solved them
    assert [t for t in said if "more than --solve-left" in t] == [
        f"4x4 3-colour: level {both['level']} within {both['at_most']} leaves {len(solved)} ways to split that "
        f"no path serves, more than --solve-left {len(solved) - 1}: checked again a move looser; the same "
        f"command with --solve-left {len(solved)} solves them instead"
    ]
    coarse = merged(wsdb.wrapslide(4, 3), "12")
    levels = level_states(4, coarse.solved)
    depth = {x.tobytes(): d for d, states in enumerate(levels) for x in states}
    moves, distance = rule_moves(4), exact_distance(3)
    for s in solved:
        cells = wsdb.parse_state(s["state"])[1]
        # a lifting of a state at the merged grid's God number, with a shortest
        # path (the one tried) that finishes at the second phase's worst ...
        assert depth[(cells == 2).astype(np.uint8).tobytes()] == first["worst"]
        frontier = {cells.tobytes(): cells}
        for d in range(first["worst"], 0, -1):
            frontier = {
                t.tobytes(): t
                for f in frontier.values()
                for t in (f[m] for m in moves)
                if depth[(t == 2).astype(np.uint8).tobytes()] == d - 1
            }
        assert max(distance(f) for f in frontier.values()) == second["worst"]
        # ... and a solution within the bound, no shorter than its distance
        assert distance(cells) <= s["length"] == len(s["moves"].split()) <= b.value and s["within"]


@pytest.mark.parametrize(
    "need", [(0, 0, 0, 0), (2, 0, 0, 0), (0, 3, 0, 0), (1, 1, 5, 0), (3, 2, 1, 0), (4, 1, 2, 1), (9, 9, 9, 9)]
)
def test_the_checks_run_strictest_first_and_take_off_what_every_level_allows(db, monkeypatch, need):
    # level G - j passes within A moves of the second phase's goal when A >= W - need[j]; K moves come
    # off when every level j < K passes within W - K + j (the module docstring), and a level that
    # passes within A passes within A + 1, so --off 4 makes exactly 4 checks, strictest first
    import wsdb.bounds.merging as merging

    first, second = by_merging(Store.open(db), 4, 3, "12").witness["phases"]
    G, W = first["worst"], second["worst"]
    made, given, still = [], [], {}

    def level_passes_within(table, coarse, fine, together, states, distances, cells, depth, above, *rest, **kw):
        made.append((G - depth, above))
        given.append(cells)
        fails = above < W - need[G - depth]
        still[depth] = cells[::2] if fails else cells[:0]  # some states leave liftings
        return int(fails), np.empty((0, 16), np.uint8), still[depth]

    monkeypatch.setattr(merging, "_worst_liftings", level_passes_within)
    b = merging.by_merging(Store.open(db), 4, 3, "12", off=4)
    taken = max(k for k in range(5) if all(need[j] >= k - j for j in range(k)))  # the definition
    assert b.value == G + W - taken
    assert len(made) == 4 and made[0] == (0, W - 4)
    assert [(G - ch["level"], ch["at_most"]) for ch in b.witness["checks"]] == made
    passed = [(j, a) for j, a in made if a >= W - need[j]]
    assert [j for j, _ in passed] == list(range(taken))  # each level passes once, in order
    assert all(a <= W - taken + j for j, a in passed)
    # a level checked again a move looser is checked at the states the stricter check left, and says so
    for i, ch in enumerate(b.witness["checks"]):
        again = i > 0 and made[i - 1][0] == made[i][0]
        assert ch.get("again", False) == again and ch["states"] == len(given[i])
        if again:
            assert np.array_equal(given[i], given[i - 1][::2])


def _merged_phases_4x4(db):
    """4x4 three colours with 1+2 merged: (the grid, the merged grid, the
    states whose merged image is solved, the merged grid's census table,
    their exact distances)."""
    import wsdb.bounds.merging as merging
    from wsdb.engine.census import subset_table
    from wsdb.engine.engines import Engine

    fine = wsdb.wrapslide(4, 3)
    coarse, states = merging.merged_phase_states(fine, "12")
    engine = Engine(fine)
    _, keep, cls = np.unique(engine.canonical(engine.encode(states)), axis=0, return_index=True, return_inverse=True)
    distances = merging._exact_distances(Store.open(db), fine, states[keep])[0][np.ravel(cls)]
    return fine, coarse, states, subset_table(coarse), distances


def test_a_looser_check_leaves_liftings_only_at_states_the_stricter_one_left(db):
    # why a level checked again a move looser is checked only at the states the stricter check left:
    # each lifting with a path within some distance has it within any larger one, with the same paths tried
    import wsdb.bounds.merging as merging

    fine, coarse, states, table, distances = _merged_phases_4x4(db)
    worst, smaller = int(distances.max()), 0
    for depth in (table.height, table.height - 1):
        cells = table.ranking.level(table.words, depth, coarse.maps)
        stricter = None
        for above in range(worst - 3, worst + 1):
            total, _, still = merging._worst_liftings(
                table, coarse, fine, "12", states, distances, cells, depth, above, 1
            )
            assert (total > 0) == (len(still) > 0)
            if stricter is not None:
                assert set(still) <= set(stricter)
                assert (
                    merging._worst_liftings(table, coarse, fine, "12", states, distances, stricter, depth, above, 1)[0]
                    == total
                )
                smaller += 0 < len(stricter) < len(cells)
            stricter = still
    assert smaller  # some check a move looser looked at fewer states than the level has


def _without_time(checks):
    return [{k: v for k, v in ch.items() if k not in ("seconds", "resumed", "solutions_resumed")} for ch in checks]


def test_a_check_stopped_part_way_resumes_from_its_kept_slices(db, monkeypatch):
    import sqlite3

    import wsdb.bounds.merging as merging
    from wsdb.bounds import lifting

    args = dict(tries=1, off=2, solve_left=0)
    whole = by_merging(Store.open(db), 4, 3, "12", **args)  # read-only: nothing kept
    real, parts = lifting.unavoidable, []

    def stopping(self, words, part, *rest):
        if len(parts) == 3:
            raise KeyboardInterrupt  # a Ctrl-C during the fourth slice
        parts.append(part.copy())
        return real(self, words, part, *rest)

    monkeypatch.setattr(lifting, "unavoidable", stopping)
    monkeypatch.setattr(merging, "FIRST_TRIES", 1)  # one kernel call a slice: the tries are 1
    with pytest.raises(KeyboardInterrupt):
        by_merging(Store.open(db, write=True), 4, 3, "12", **args)
    with sqlite3.connect(db) as conn:
        kept = conn.execute(
            "select level, count(*), sum(states), sum(unavoidable) from check_slices group by level"
        ).fetchall()
    first = whole.witness["checks"][0]
    assert len(kept) == 1 and kept[0][:3] == (first["level"], 3, sum(len(p) for p in parts))

    parts.clear()
    monkeypatch.setattr(
        lifting,
        "unavoidable",
        lambda self, words, part, *rest: parts.append(part.copy()) or real(self, words, part, *rest),
    )
    again = by_merging(Store.open(db, write=True), 4, 3, "12", **args)
    assert again.value == whole.value
    assert _without_time(again.witness["checks"]) == _without_time(whole.witness["checks"])
    assert again.witness["checks"][0]["resumed"] == 3  # the three slices kept were not checked again
    assert sum(len(p) for p in parts) == sum(ch["states"] for ch in whole.witness["checks"]) - kept[0][2]
    # and a third run checks nothing: every slice of every check is kept
    parts.clear()
    third = by_merging(Store.open(db, write=True), 4, 3, "12", **args)
    assert not parts and third.value == whole.value
    assert [ch["resumed"] for ch in third.witness["checks"]] == [
        -(-ch["states"] // max(1, -(-ch["states"] // 100))) for ch in whole.witness["checks"]
    ]


def test_a_kept_slice_that_disagrees_is_said_and_fresh_checks_every_slice(db):
    import sqlite3

    from wsdb.errors import DamagedError

    args = dict(tries=1, off=1, solve_left=0)
    whole = by_merging(Store.open(db, write=True), 4, 3, "12", **args)
    assert whole.witness["checks"][0]["unavoidable"] > 0
    with sqlite3.connect(db) as conn:
        conn.execute(
            "update check_slices set unavoidable = unavoidable + 1 where unavoidable > 0 and slice = "
            "(select min(slice) from check_slices where unavoidable > 0)"
        )
    with pytest.raises(DamagedError, match="stored with another result"):
        by_merging(Store.open(db, write=True), 4, 3, "12", fresh=True, **args)


def test_the_liftings_solved_are_kept_and_replayed_not_solved_again(db, monkeypatch):
    import sqlite3

    import wsdb.bounds.within as within
    from wsdb.errors import DamagedError

    asked, real = [], within.solve_within
    monkeypatch.setattr(within, "solve_within", lambda states, *a, **kw: asked.extend(states) or real(states, *a, **kw))
    args = dict(tries=2, solve_left=1000)
    whole = by_merging(Store.open(db, write=True), 4, 3, "12", **args)
    solved = whole.witness["checks"][0]["solved"]
    # a lifting's swap of colours 1 and 2 is a lifting too, solved by the
    # same moves (the goal is each quadrant one colour, whichever): half are solved
    moves = {s["state"]: s["moves"] for s in solved}
    assert {s.translate(str.maketrans("12", "21")) for s in moves} == set(moves)
    assert all(moves[s.translate(str.maketrans("12", "21"))] == m for s, m in moves.items())
    assert len(asked) == len(solved) // 2 and len(set(asked)) == len(asked)
    with sqlite3.connect(db) as conn:
        kept = dict(conn.execute("select state, moves from check_solutions").fetchall())
    assert kept == moves and len(kept) > 1

    asked.clear()
    again = by_merging(Store.open(db, write=True), 4, 3, "12", **args)
    assert not asked and _without_time(again.witness["checks"]) == _without_time(whole.witness["checks"])
    assert again.witness["checks"][0]["solutions_resumed"] == len(solved) and again.value == whole.value

    # a kept sequence one move short (each is optimal on 4x4, so it stops
    # short of solved) is said, not used; --fresh solves the liftings again
    first = solved[0]["state"]
    with sqlite3.connect(db) as conn:
        conn.execute(
            "update check_solutions set moves = ?, length = length - 1 where state = ?",
            (" ".join(solved[0]["moves"].split()[:-1]), first),
        )
    with pytest.raises(DamagedError, match=f"the moves kept for {first} do not solve it"):
        by_merging(Store.open(db, write=True), 4, 3, "12", **args)
    fresh = by_merging(Store.open(db, write=True), 4, 3, "12", fresh=True, **args)
    assert len(asked) == len(solved) // 2 and fresh.witness["checks"][0]["solved"] == solved
    with sqlite3.connect(db) as conn:
        assert dict(conn.execute("select state, moves from check_solutions").fetchall()) == kept


def test_a_lifting_the_beam_solves_in_too_many_moves_is_solved_again_in_full(db, monkeypatch):
    import wsdb.solver.solve as solve
    import wsdb.bounds.within as within
    from wsdb.puzzle.replay import replay
    from wsdb.solver.guide import Found

    full, real_beam, real_solve = [], within.beam_search, solve.iter_solve

    def padded(guide, cells, width, deadline):  # the beam's answers said to be 20 moves longer
        found, waypoints = real_beam(guide, cells, width, deadline)
        return (Found(found.path, found.meet, found.rest + 20) if found else None), waypoints

    def counted(states, **kw):
        full.append(states)
        return real_solve(states, **kw)

    monkeypatch.setattr(within, "beam_search", padded)
    monkeypatch.setattr(within, "iter_solve", counted)
    b = by_merging(Store.open(db), 4, 3, "12", tries=2, solve_left=1000)
    check = b.witness["checks"][0]
    budget = check["level"] + check["at_most"]
    assert check["left"] == 0 and check["solved"]
    assert all(s["length"] <= budget and replay(s["state"], s["moves"].split()).solved for s in check["solved"])
    # the full search for each half-pair, one state at a time
    assert len(full) == len(check["solved"]) // 2 and all(len(s) == 1 for s in full)


@pytest.mark.parametrize("detours", [False, True])
def test_a_first_pass_with_fewer_tries_changes_no_count(db, monkeypatch, detours):
    import wsdb.bounds.merging as merging

    def left(tries):
        b = merging.by_merging(Store.open(db), 4, 3, "12", tries=tries, detours=detours, solve_left=0)
        return b.witness["checks"][0]["unavoidable"]

    monkeypatch.setattr(merging, "FIRST_TRIES", 1)
    two_pass = [left(t) for t in (1, 2, 3)]
    monkeypatch.setattr(merging, "FIRST_TRIES", 10**6)  # one pass with every try
    assert two_pass == [left(t) for t in (1, 2, 3)]
    assert two_pass[0] > 0  # the first pass leaves liftings for the second to look at


def test_the_order_of_the_paths_changes_no_count_and_the_pilot_takes_the_fewest_walks(db, monkeypatch):
    # the first pass walks `shortest` shortest paths, then the detours, then the other shortest paths: the
    # liftings left are those every path leaves, whatever the order; only the paths walked change
    import wsdb.bounds.merging as merging
    from wsdb.bounds import lifting

    fine, coarse, states, table, distances = _merged_phases_4x4(db)
    worst, real, calls, tries = int(distances.max()), lifting.unavoidable, [], 6
    monkeypatch.setattr(lifting, "unavoidable", lambda self, *a: calls.append(a) or real(self, *a))
    varied = left_some = 0
    for depth in (table.height, table.height - 1):
        cells = table.ranking.level(table.words, depth, coarse.maps)
        for above in range(worst - 3, worst + 1):
            calls.clear()
            merging._worst_liftings(table, coarse, fine, "12", states, distances, cells, depth, above, tries)
            words, _, _, _, _, *rest = calls[-1]
            runs = {s: real(table.ranking, words, cells, depth, tries, s, *rest) for s in range(1, tries + 1)}
            for left, walks in runs.values():
                assert np.array_equal(left, runs[tries][0])
                assert (walks >= 1).all()
                assert np.array_equal(walks[left > 0], runs[tries][1][left > 0])  # every path, in any order
            walked = {s: int(walks.sum()) for s, (_, walks) in runs.items()}
            varied += len(set(walked.values())) > 1
            left_some += int((runs[tries][0] > 0).any())

            def check(part, t, s):
                return real(table.ranking, words, part, depth, t, s, *rest)

            best = merging._fewest_walks(cells, check, tries)
            assert walked[best] == min(walked.values())  # the level is smaller than the pilot: all of it
    assert varied and left_some  # the order matters to the walks somewhere, and some liftings are left


def test_tries_default_is_the_one_help_names(run):
    from wsdb.bounds.merging import SOLVE_LEFT, TRIES

    text = " ".join(run("bounds", "compute", "--help").stdout.split())
    assert f"(default {TRIES})" in text and f"(default {SOLVE_LEFT};" in text


def _paths_to_goal(start, depth, longest, moves, coarse_depth):
    """Every path of the merged grid from ``start`` (at ``depth``) to a goal,
    of at most ``longest`` moves and through no goal before its end, as
    (length, composed cell permutation), by brute force over the levels."""
    out, stack = [], [(start, np.arange(start.size), 0)]
    while stack:
        x, perm, length = stack.pop()
        if coarse_depth[x.tobytes()] == 0 and length >= depth:
            out.append((length, perm))
        elif length < longest:
            for m in moves:
                y = x[m]
                if coarse_depth[y.tobytes()] <= longest - length - 1:
                    stack.append((y, perm[m], length + 1))
    return out


@pytest.mark.parametrize(
    "sample",
    [
        slice(None, None, 220),  # 1 of the 220 deepest states; another in the slow run
        pytest.param(slice(110, None, 220), marks=pytest.mark.slow, id="another"),
    ],
)
def test_the_moves_taken_off_hold_on_every_path_by_brute_force(db, exact_distance, sample):
    """Where the merging bound takes moves off, every lifting of the merged
    grid's deepest states has a path (shortest, or one or two moves longer:
    a detour) whose length plus the phase-2 distance it finishes on is
    within the bound, checked over every such path."""
    from tests.bruteforce import level_states, rule_moves
    from wsdb.puzzle.model import merged

    fine, together = wsdb.wrapslide(4, 3), "13"  # here the move comes off only by detours
    b = by_merging(Store.open(db), 4, 3, together, off=2)
    first, second = b.witness["phases"]
    taken = first["worst"] + second["worst"] - b.value
    assert taken >= 1 and b.value >= 10  # Θ(4,3) = 10
    coarse = merged(fine, together)
    levels = level_states(4, coarse.solved)
    depth = {x.tobytes(): d for d, states in enumerate(levels) for x in states}
    moves, distance = rule_moves(4), exact_distance(3)
    picked = [int(k) - 1 for k in together]
    rest = [k for k in range(3) if k not in picked][0]
    counts = (4, 4, 8)
    finished = merged_goal_states(4, counts, picked)  # every phase-2 state, and its exact distance
    weights = 3 ** np.arange(16, dtype=np.int64)
    order = np.argsort(finished.astype(np.int64) @ weights)
    codes = (finished.astype(np.int64) @ weights)[order]
    far = np.array([distance(f) for f in finished])[order]
    assert by_merging(Store.open(db), 4, 3, together, detours=False, solve_left=0).value > b.value
    assert b.command == "wsdb bounds compute --n 4 --c 3 --merge 13 --off 2"  # proves it again
    for x in levels[-1][sample]:
        paths = _paths_to_goal(x, len(levels) - 1, len(levels) + 1, moves, depth)
        merged_cells = np.flatnonzero(x == 0)
        liftings = []
        for ones in itertools.combinations(merged_cells, counts[picked[0]]):
            s = np.full(16, rest, dtype=np.uint8)
            s[merged_cells] = picked[1]
            s[list(ones)] = picked[0]
            liftings.append(s)
        liftings = np.array(liftings)
        best = np.full(len(liftings), 99)
        for length, perm in paths:
            ends = liftings[:, perm].astype(np.int64) @ weights
            at = np.minimum(np.searchsorted(codes, ends), len(codes) - 1)
            assert (codes[at] == ends).all()  # each path finishes on a phase-2 state
            best = np.minimum(best, length + far[at])
        assert best.max() <= b.value


def test_a_sampled_check_of_the_whole_level_leaves_what_the_check_leaves(db):
    from wsdb.bounds.merging import sampled_checks

    full = by_merging(Store.open(db), 4, 3, "12", tries=2, solve_left=0).witness["checks"][0]
    (whole,) = sampled_checks(Store.open(db), 4, 3, "12", off=1, tries=2, size=10**9, solve=4)
    assert full["unavoidable"] > 0  # the check leaves liftings, so the counts can differ
    assert (whole["level"], whole["at_most"], whole["states"], whole["left"]) == (
        full["level"],
        full["at_most"],
        full["states"],
        full["unavoidable"],
    )
    assert whole["sample"] == whole["states"]
    # each lifting solved is a state of the grid, and a solution within the budget is found for it
    assert whole["solved"] == whole["within"] == min(4, whole["left"])
    assert whole["longest"] <= whole["level"] + whole["at_most"]
    # a smaller sample: part of each level, no more liftings
    rows = sampled_checks(Store.open(db), 4, 3, "12", off=2, tries=2, size=5)
    assert [r["level"] for r in rows] == [whole["level"], whole["level"] - 1]
    assert all(r["sample"] == 5 for r in rows)
    assert rows[0]["at_most"] == whole["at_most"] - 1 and "solved" not in rows[0]
    assert all(r["states_left"] <= r["sample"] and (r["left"] > 0) == (r["states_left"] > 0) for r in rows)
