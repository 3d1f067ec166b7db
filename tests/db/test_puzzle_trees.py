"""Other puzzles' trees in the database (wsdb/db/build.py: build_puzzle,
lookup, sample, the migration that added the ``puzzle`` column), checked
against the documents' figures (tests/data/puzzles.json) and a plain
breadth-first search over tuples written in tests/db/test_census.py."""

import contextlib
import csv
import json
import shutil
import sqlite3
from collections import Counter, deque
from importlib import resources
from pathlib import Path

import numpy as np
import pytest
from alembic import command
from alembic.config import Config

import wsdb
from tests.engine.test_census import as_permutations, grid_moves_rubeish, plain_bfs, plain_levels, sliding_moves
from wsdb.db.build import build_puzzle, build_sliding
from wsdb.db.sample import TreeSampler
from wsdb.db.store import Store
from wsdb.errors import WsdbError
from wsdb.puzzle.catalog import get_puzzle
from wsdb.puzzle.sliding import SlidingPuzzle
from wsdb.puzzle.text import format_cells
from wsdb.puzzle.tree_key import TreeKey

DATA = json.loads((Path(__file__).resolve().parents[1] / "data" / "puzzles.json").read_text())


def plain_distances(goal, moves):
    """{state: distance from goal} by a plain search over tuples (a level
    at a time over arrays where the moves are cell permutations)."""
    perms = as_permutations(goal, moves)
    if perms is not None:
        symbols = sorted(set(goal))
        return {
            tuple(symbols[i] for i in row): d
            for d, level in enumerate(plain_levels(goal, perms))
            for row in level.tolist()
        }
    dist = {goal: 0}
    todo = deque([goal])
    while todo:
        s = todo.popleft()
        for move in moves:
            t = move(s)
            if t not in dist:
                dist[t] = dist[s] + 1
                todo.append(t)
    return dist


def text(s, n):
    return "/".join("".join(s[r * n : (r + 1) * n]) for r in range(n))


@pytest.fixture(scope="module")
def rubeish_db(tmp_path_factory):
    db = tmp_path_factory.mktemp("puzzles") / "p.sqlite"
    tree, row = build_puzzle(get_puzzle("rubeish", 3), db=db)
    return db, tree, row


def test_the_rubeish_tree_has_the_published_order_and_god_number_and_plain_counts(rubeish_db):
    db, tree, row = rubeish_db
    published = DATA["rubeish"]
    assert row["complete"] and row["states"] == published["states"] and row["god_number"] == published["god"]
    plain = plain_bfs(tuple("123456789"), grid_moves_rubeish(3))  # 4 s: once
    assert [lv.states for lv in tree.levels] == plain
    store = Store.open(db)
    assert [r["states"] for r in store.level_rows(TreeKey("rubeish", 3, 9, "123/456/789"))] == plain


def test_lookups_are_optimal_and_replay_to_the_goal(rubeish_db):
    db, _, _ = rubeish_db
    dist = plain_distances(tuple("123456789"), grid_moves_rubeish(3))
    rng = np.random.default_rng(5)
    states = list(dist)
    picks = [states[i] for i in rng.choice(len(states), 150, replace=False)]
    answers = wsdb.lookup_many([text(s, 3) for s in picks], db=db, puzzle="rubeish")
    p = get_puzzle("rubeish", 3)
    for s, ans in zip(picks, answers):
        assert ans.distance == dist[s] and ans.puzzle == "rubeish"
        cells = np.array([p.symbols.index(ch) for ch in s])
        assert format_cells(p, p.apply(cells, ans.moves)) == "123/456/789"


def test_an_unreachable_state_is_refused_in_one_line(rubeish_db):
    db, _, _ = rubeish_db
    with pytest.raises(WsdbError, match="cannot be reached from the goal"):
        wsdb.lookup("213/456/789", db=db, puzzle="rubeish")  # an odd permutation: not in A9
    with pytest.raises(WsdbError, match="expected the symbols"):
        wsdb.lookup("023/456/789", db=db, puzzle="rubeish")
    with pytest.raises(WsdbError, match="has no rubeish 3x3 111/222/333 database"):
        wsdb.lookup("111/222/333", db=db, puzzle="rubeish", goal="111/222/333")


def test_a_coloured_goal_with_symmetry_stores_orbits_that_sum_to_the_reachable_states(tmp_path):
    # Rubik's Slide easy mode on 3x3 with the corners coloured: the goal keeps all 8 dihedral maps
    goal = "101/000/101"
    p = get_puzzle("rubiks-slide-easy", 3, goal=goal)
    assert len(p.maps) == 8
    tree, row = build_puzzle(p, db=tmp_path / "e.sqlite")
    n = 3
    right = lambda s: tuple(s[r * n + (j - 1) % n] for r in range(n) for j in range(n))  # noqa: E731
    up = lambda s: tuple(s[((r + 1) % n) * n + j] for r in range(n) for j in range(n))  # noqa: E731
    turn = lambda s: tuple(s[(n - 1 - j) * n + r] for r in range(n) for j in range(n))  # noqa: E731
    moves = [right, up, turn]
    moves += [lambda s, m=m: m(m(s)) for m in (right, up)] + [lambda s: turn(turn(turn(s)))]  # inverses
    want = plain_bfs(tuple(goal.replace("/", "")), moves)
    assert [lv.states for lv in tree.levels] == want and row["states"] == sum(want)
    assert row["classes"] < row["states"]  # symmetry folded states into classes
    # the classes view writes each representative in the goal's own symbols
    store = Store.open(tmp_path / "e.sqlite")
    reps, depths, _, _ = store.load(TreeKey.of(p), wsdb.engine.puzzle_engine(p).layout)
    with contextlib.closing(sqlite3.connect(tmp_path / "e.sqlite")) as conn:
        grids = conn.execute(
            "select grid, depth from classes where puzzle = 'rubiks-slide-easy' order by rep"
        ).fetchall()
    decoded = wsdb.engine.puzzle_engine(p).decode(reps)
    assert grids == [(format_cells(p, cells), int(d)) for cells, d in zip(decoded, depths)]


def test_the_grid_view_reads_wide_keys_in_any_label_width(tmp_path):
    # 16 distinct labels on 4x4 make 64-bit keys, stored as BLOBs; 3-bit labels straddle hex digits
    for goal, depth in (("1234/5678/9ABC/DEFG", 3), ("1234/5612/3456/1234", 2)):
        p = get_puzzle("rubiks-slide-hard", 4, goal=goal)
        build_puzzle(p, db=tmp_path / "w.sqlite", max_depth=depth)
        with contextlib.closing(sqlite3.connect(tmp_path / "w.sqlite")) as conn:
            rows = conn.execute("select grid from classes where root = ? order by depth, rep", (p.goal,)).fetchall()
        assert rows[0] == (p.goal,)
        for (grid,) in rows:
            assert Counter(grid) == Counter(p.goal)


def test_wrapslide_and_another_puzzle_of_the_same_size_live_side_by_side(tmp_path):
    db = tmp_path / "both.sqlite"
    wsdb.build(4, 2, db=db)
    goal = "1100/1100/0000/0000"
    build_puzzle(get_puzzle("rubiks-slide-easy", 4, goal=goal), db=db)  # also n=4, two labels
    assert wsdb.lookup("1122/1122/2222/2222", db=db).distance == 0
    assert wsdb.lookup(goal, db=db, puzzle="rubiks-slide-easy", goal=goal).distance == 0
    store = Store.open(db)
    assert [b["puzzle"] for b in store.build_rows()] == ["wrapslide", "rubiks-slide-easy"]
    assert store.build_row(TreeKey.wrapslide(4, 2))["god_number"] == 6  # Wrapslide's, untouched
    assert wsdb.verify(4, 2, db=db).ok


def test_solve_meets_a_partial_tree_at_the_exact_distance(rubeish_db, tmp_path):
    db, _, _ = rubeish_db
    partial = tmp_path / "partial.sqlite"
    build_puzzle(get_puzzle("rubeish", 3), db=partial, max_depth=4)
    states = _states_at(db, (5, 6, 8))
    exact = wsdb.lookup_many(states, db=db, puzzle="rubeish")
    for ans, sol in zip(exact, wsdb.solve_many(states, db=partial, puzzle="rubeish")):
        assert sol.method == "meet" and sol.length == ans.distance and sol.optimal
        p = get_puzzle("rubeish", 3)
        cells = np.array([p.symbols.index(ch) for ch in ans.state.replace("/", "")])
        assert format_cells(p, p.apply(cells, sol.moves)) == "123/456/789"


def _states_at(db, depths):
    with contextlib.closing(sqlite3.connect(db)) as conn:
        return [
            conn.execute("select grid from classes where puzzle = 'rubeish' and depth = ? limit 1", (d,)).fetchone()[0]
            for d in depths
        ]


def test_random_states_are_uniform_over_the_reachable_ones(tmp_path):
    # Rubik's Slide easy 3x3, corners coloured: 8 maps, so the draw goes through symmetry
    goal = "101/000/101"
    p = get_puzzle("rubiks-slide-easy", 3, goal=goal)
    build_puzzle(p, db=tmp_path / "r.sqlite")
    sampler = TreeSampler(p, tmp_path / "r.sqlite")
    drawn = Counter(format_cells(p, s) for s in sampler.draw(9000, np.random.default_rng(3)))
    assert len(drawn) == sampler.states == 9  # every reachable state (plain search: 9), nothing else
    assert max(drawn.values()) < 1.15 * 1000 and min(drawn.values()) > 0.85 * 1000
    again = np.concatenate([sampler.draw(10, g := np.random.default_rng(4)), sampler.draw(10, g)])
    assert (again == sampler.draw(20, np.random.default_rng(4))).all()  # one stream


def test_a_sliding_board_too_big_to_store_is_refused_before_any_work(tmp_path):
    # its ranked table holds every state at once: the count is known in advance
    # (a class tree is refused by its levels instead: test below)
    with pytest.raises(WsdbError, match="239,500,800 states"):  # 12!/2: counted by the census only
        build_sliding(SlidingPuzzle(3, 4), db=tmp_path / "x.sqlite")
    assert not (tmp_path / "x.sqlite").exists()


def test_the_migration_keeps_wrapslide_rows_both_ways(tmp_path):
    db = tmp_path / "m.sqlite"
    wsdb.build(4, 3, db=db)
    build_puzzle(get_puzzle("rubiks-slide-easy", 3, goal="101/000/101"), db=db)
    q = "select n, c, root, rep, grid, depth, parent, orbit_size from classes where n = 4 order by rep"
    with contextlib.closing(sqlite3.connect(db)) as conn:
        before = conn.execute(q).fetchall()
    cfg = Config()
    cfg.set_main_option("script_location", str(resources.files("wsdb.db.migrations")))
    cfg.set_main_option("sqlalchemy.url", f"sqlite:///{db}")
    command.downgrade(cfg, "0003")
    with contextlib.closing(sqlite3.connect(db)) as conn:
        assert conn.execute(q).fetchall() == before
        assert conn.execute("select count(*) from class_rows where n = 3").fetchone() == (0,)
    command.upgrade(cfg, "head")
    with contextlib.closing(sqlite3.connect(db)) as conn:
        assert conn.execute(q).fetchall() == before
        assert conn.execute("select distinct puzzle from classes").fetchall() == [("wrapslide",)]
    assert wsdb.verify(4, 3, db=db).ok and wsdb.lookup("1212/3333/1212/3333", db=db).distance is not None


def test_the_command_line_builds_looks_up_solves_draws_and_reports_another_puzzle(run, tmp_path):
    db = tmp_path / "cli.sqlite"
    goal = "101/000/101"
    built = run("build", "--puzzle", "rubiks-slide-easy", "--n", 3, "--goal", goal, "--db", db)
    assert built.exit_code == 0 and "9 states" in built.stdout and "depth   2" in built.stderr
    drawn = run(
        "random", "--puzzle", "rubiks-slide-easy", "--n", 3, "--goal", goal, "--count", 20, "--seed", 1, "--db", db
    )
    assert drawn.exit_code == 0 and len(drawn.stdout.split()) == 20
    looked = run(
        "lookup", "-", "--puzzle", "rubiks-slide-easy", "--goal", goal, "--json", "--db", db, input=drawn.stdout
    )
    rows = [json.loads(line) for line in looked.stdout.splitlines()]
    assert [r["state"] for r in rows] == drawn.stdout.split() and all(r["puzzle"] == "rubiks-slide-easy" for r in rows)
    solved = run("solve", rows[0]["state"], "--puzzle", "rubiks-slide-easy", "--goal", goal, "--json", "--db", db)
    assert json.loads(solved.stdout)["length"] == rows[0]["distance"]
    for r in rows:
        played = run("apply", r["state"], *r["moves"], "--puzzle", "rubiks-slide-easy", "--goal", goal, "--json")
        assert json.loads(played.stdout)["solved"] and json.loads(played.stdout)["result"] == goal
    report = run("stats", "--puzzle", "rubiks-slide-easy", "--json", "--db", db)
    assert json.loads(report.stdout)["states"] == 9
    assert "rubiks-slide-easy 3x3 101/000/101" in run("info", "--db", db).stdout


@pytest.mark.parametrize(
    "args, says",
    [
        (("build", "--puzzle", "rubeish", "--n", 3, "--root", "single"), "--root is Wrapslide's"),
        (("build", "--n", 4), "wrapslide needs --c"),
        (("build", "--n", 4, "--c", 2, "--goal", "1122/1122/2222/2222"), "is for the other puzzles"),
        (("build", "--puzzle", "rubeish", "--n", 3, "--goal", "12/34"), "expected"),
        (("lookup", "12345678", "--puzzle", "rubeish"), "expected n*n"),
        (("solve", "123/456/789", "--puzzle", "rubeish", "--method", "beam"), "expected --method auto or meet"),
        (("random", "--puzzle", "rubeish", "--n", 3, "--c", 3), "--c is Wrapslide's"),
        (("build", "--puzzle", "sliding", "--n", 2, "--m", 3, "--max-depth", 3), "give no --max-depth"),
        (("build", "--puzzle", "rubeish", "--n", 3, "--m", 4), "--m is the sliding puzzle's"),
        (("lookup", "12345_", "--puzzle", "sliding"), "expected its rows split by '/'"),
        (("verify", "--n", 4), "wrapslide needs --c"),
        (("export", "out.csv", "--puzzle", "rubeish", "--n", 3, "--c", 2), "--c is Wrapslide's"),
    ],
)
def test_bad_puzzle_arguments_are_one_line(run, tmp_path, args, says):
    res = run(*args, "--db", tmp_path / "none.sqlite")
    assert res.exit_code == 2 and says in res.stderr and len(res.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "none.sqlite").exists()  # nothing written


# ---- the sliding-tile puzzle: its tree from the ranked table ---------------------------


def plain_slide(state, name, cols):
    """The sliding rules written here: move D slides the tile above the
    blank down into it, U the one below up, R the one left of it right, L
    the one right of it left."""
    s = list(state)
    b = s.index("_")
    t = b + {"D": -cols, "U": cols, "R": -1, "L": 1}[name]
    assert 0 <= t < len(s) and (name in "DU" or t // cols == b // cols), (state, name)
    s[b], s[t] = s[t], s[b]
    return "".join(s)


@pytest.fixture(scope="module")
def sliding_db(tmp_path_factory):
    db = tmp_path_factory.mktemp("sliding") / "s.sqlite"
    for rows, cols in ((2, 3), (3, 3)):
        build_sliding(SlidingPuzzle(rows, cols), db=db)
    return db


@pytest.mark.parametrize("rows, cols", [(2, 3), (3, 3)])
def test_the_sliding_tree_holds_every_solvable_state_at_its_distance(sliding_db, rows, cols):
    p = SlidingPuzzle(rows, cols)
    row = Store.open(sliding_db).build_row(TreeKey.of(p))
    published = next(b for b in DATA["sliding"]["boards"] if (b["rows"], b["cols"]) == (rows, cols))
    assert row["complete"] and row["god_number"] == published["god"] and row["states"] == p.states
    goal = tuple(range(1, rows * cols)) + (0,)
    levels = Store.open(sliding_db).level_rows(TreeKey.of(p))
    assert [lv["states"] for lv in levels] == plain_bfs(goal, sliding_moves(rows, cols, 0))


def test_sliding_lookups_replay_by_the_rules_to_the_goal_in_the_stored_number_of_moves(sliding_db):
    with contextlib.closing(sqlite3.connect(sliding_db)) as conn:  # every 2x3 state, as the view writes it
        rows = conn.execute("select grid, depth from classes where puzzle = 'sliding' and n = 2").fetchall()
    assert len(rows) == 360
    answers = wsdb.lookup_many([g for g, _ in rows], db=sliding_db, puzzle="sliding")
    for (grid, depth), ans in zip(rows, answers):
        assert ans.state == grid and ans.distance == depth == len(ans.moves)
        state = grid.replace("/", "")
        for name in ans.moves:
            state = plain_slide(state, name, 3)
        assert state == "12345_"
    sol = wsdb.solve("87_/654/321", db=sliding_db, puzzle="sliding")
    assert sol.length == 26 and sol.optimal and sol.method == "table"
    with pytest.raises(WsdbError, match="cannot be reached"):
        wsdb.lookup("213/45_", db=sliding_db, puzzle="sliding")


def test_random_sliding_states_cover_the_solvable_ones_evenly(sliding_db):
    sampler = TreeSampler(SlidingPuzzle(2, 3), sliding_db)
    drawn = Counter(SlidingPuzzle(2, 3).format(s) for s in sampler.draw(36_000, np.random.default_rng(8)))
    assert len(drawn) == 360 and min(drawn.values()) > 50 and max(drawn.values()) < 150  # 100 each expected


def test_the_command_line_stores_and_reads_a_sliding_board(run, tmp_path):
    db = tmp_path / "s.sqlite"
    built = run("build", "--puzzle", "sliding", "--n", 2, "--m", 3, "--db", db)
    assert built.exit_code == 0 and "360 states, God number 21" in built.stdout
    res = run("lookup", "--puzzle", "sliding", "45_/123", "--db", db)  # the board's one antipode (the census's)
    assert res.exit_code == 0 and res.stdout.startswith("45_/123: 21 moves: ")
    drawn = run("random", "--puzzle", "sliding", "--n", 2, "--m", 3, "--count", 5, "--seed", 2, "--db", db)
    bad = run("apply", "87_/654/321", "D", "--puzzle", "sliding")
    assert bad.exit_code == 2 and "no tile on that side of the blank" in bad.stderr
    solved = run("solve", "-", "--puzzle", "sliding", "--json", "--db", db, input=drawn.stdout)
    assert [json.loads(line)["state"] for line in solved.stdout.splitlines()] == drawn.stdout.split()


def test_verify_proves_other_trees_and_names_damage(rubeish_db, sliding_db, tmp_path):
    from wsdb.db.verify import verify_puzzle

    assert verify_puzzle(get_puzzle("rubeish", 3), db=rubeish_db[0]).ok
    assert verify_puzzle(SlidingPuzzle(3, 3), db=sliding_db).ok
    broken = tmp_path / "broken.sqlite"
    shutil.copy(sliding_db, broken)
    with contextlib.closing(sqlite3.connect(broken)) as conn:  # a 3x3 state moved one level deeper
        conn.execute(
            "update class_rows set depth = depth + 1 where n = 3 and rep = "
            "(select rep from class_rows where n = 3 and depth = 10 limit 1)"
        )
        conn.commit()
    report = verify_puzzle(SlidingPuzzle(3, 3), db=broken)
    assert not report.ok and "depth" in report.problem


def test_export_writes_the_rows_the_view_shows(sliding_db, tmp_path, run):
    out = tmp_path / "s.csv"
    res = run("export", out, "--puzzle", "sliding", "--n", 2, "--m", 3, "--db", sliding_db)
    assert res.exit_code == 0 and "360 classes of sliding 2x3" in res.stdout
    with open(out) as f:
        rows = [(r["grid"], int(r["depth"])) for r in csv.DictReader(f)]
    with contextlib.closing(sqlite3.connect(sliding_db)) as conn:
        view = conn.execute(
            "select grid, depth from classes where puzzle = 'sliding' and n = 2 order by rep"
        ).fetchall()
    assert rows == view


def test_a_puzzle_is_refused_by_its_levels_not_by_its_labels(tmp_path, monkeypatch):
    # Rubik's Slide 4x4 easy has 16 distinct labels (2e13 arrangements) but 64
    # states: it builds whole; a tree whose level really outgrows the limit
    # stops there, stored as a partial tree, and says so in one line
    import wsdb.db.build as build_module
    from wsdb.db.build import build_puzzle
    from wsdb.errors import WsdbError
    from wsdb.puzzle.catalog import get_puzzle

    db = tmp_path / "p.sqlite"
    tree, row = build_puzzle(get_puzzle("rubiks-slide-easy", 4), db=db)
    assert row["complete"] and row["states"] == 64
    monkeypatch.setattr(build_module, "MAX_CLASSES", 100)
    with pytest.raises(WsdbError, match="give --max-depth D"):
        build_puzzle(get_puzzle("rubeish", 3), db=db)
    from wsdb.db.verify import verify_puzzle

    report = verify_puzzle(get_puzzle("rubeish", 3), db=db)
    assert report.ok and not report.complete, report.problem
