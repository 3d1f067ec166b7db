"""Damage never reaches the user as an answer (wsdb/db/lookup.py): every
lookup replays its own moves and checks the stored depths along its way,
so a database with a deleted, altered or broken row answers correctly or
says, in one line naming the build, that it is damaged (exit 1, HTTP 500).
Answers are checked against the brute-force distances of tests/bruteforce.py
and replayed by a move applier written here from the rules."""

import random
import shutil
import sqlite3

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import wsdb
from wsdb.errors import DamagedError
from wsdb.puzzle import format_state, random_states, wrapslide

N, C = 4, 3  # 14,523 classes: the brute force knows every distance


def slide(grid: np.ndarray, move: str) -> np.ndarray:
    """One move from the rules (docs/rules.md): Tk/Bk slide the top/bottom
    half k cells left, Lk/Rk the left/right half k cells up, wrapping."""
    g = grid.copy()
    h = len(g) // 2
    k = int(move[1:])
    part = {
        "T": (slice(0, h), slice(None), 1),
        "B": (slice(h, None), slice(None), 1),
        "L": (slice(None), slice(0, h), 0),
        "R": (slice(None), slice(h, None), 0),
    }[move[0].upper()]
    g[part[0], part[1]] = np.roll(g[part[0], part[1]], -k, axis=part[2])
    return g


def solved(grid: np.ndarray) -> bool:
    h = len(grid) // 2
    return all(len(np.unique(grid[r : r + h, c : c + h])) == 1 for r in (0, h) for c in (0, h))


@pytest.fixture(scope="module")
def states():
    return random_states(wrapslide(N, C), 200, seed=33)


def damaged_copy(db4, tmp_path, sql: str, params=()) -> str:
    db = tmp_path / "damaged.sqlite"
    shutil.copy(db4, db)
    with sqlite3.connect(db) as conn:
        conn.execute(sql, params)
    return db


def chain_row(db, cells) -> tuple[int, int]:
    """(rep, depth) of the parent of a state's class: a row its lookup reads."""
    ans = wsdb.lookup(format_state(cells), db=db)
    with sqlite3.connect(db) as conn:
        (parent,) = conn.execute(
            "select parent from class_rows where n=? and c=? and rep=?", (N, C, ans.key)
        ).fetchone()
        (depth,) = conn.execute("select depth from class_rows where n=? and c=? and rep=?", (N, C, parent)).fetchone()
    return parent, depth


DAMAGES = {
    "deleted": "delete from class_rows where n=4 and c=3 and rep=?",
    "depth 0": "update class_rows set depth=0 where n=4 and c=3 and rep=?",
    "depth + 1": "update class_rows set depth=depth+1 where n=4 and c=3 and rep=?",
    "depth - 1": "update class_rows set depth=depth-1 where n=4 and c=3 and rep=?",
    "NULL parent": "update class_rows set parent=NULL where n=4 and c=3 and rep=?",
    "parent itself": "update class_rows set parent=rep where n=4 and c=3 and rep=?",
    "text depth": "update class_rows set depth='x' where n=4 and c=3 and rep=?",
    "text parent": "update class_rows set parent='x' where n=4 and c=3 and rep=?",
    "blob parent": "update class_rows set parent=x'00ff' where n=4 and c=3 and rep=?",
}


@pytest.mark.parametrize("damage", list(DAMAGES))
@pytest.mark.parametrize("where", ["on a lookup's way", "at random"])
def test_no_wrong_answer_from_a_damaged_database(db4, tmp_path, brute, states, damage, where):
    if where == "on a lookup's way":
        rep, _ = chain_row(db4, states[int(np.argmax([brute(N, C).distance(x) for x in states]))])
    else:
        with sqlite3.connect(db4) as conn:
            reps = [r for (r,) in conn.execute("select rep from class_rows where n=4 and c=3 and depth > 1")]
        rep = random.Random(damage).choice(reps)
    db = damaged_copy(db4, tmp_path, DAMAGES[damage], (rep,))
    distance = brute(N, C).distance
    try:
        answers = wsdb.lookup_many([format_state(x) for x in states], db=db)
    except DamagedError as e:
        assert "4x4 3-colour" in str(e) and "wsdb verify --n 4 --c 3" in str(e) and "\n" not in str(e)
        return
    for cells, ans in zip(states, answers):  # no error: every answer must be right
        assert ans.distance == distance(cells)
        grid = cells.reshape(N, N)
        for move in ans.moves:
            grid = slide(grid, move)
        assert solved(grid)
    assert where == "at random"  # damage on the way of a lookup is always caught


def test_the_reported_case_exits_1_with_one_line(run, db4, tmp_path):
    # a deleted row of the complete 4x4 four-colour tree: a lookup through it
    # printed 8 wrong moves with exit 0; now one line names it, exit 1
    state = "1344/1322/3241/3214"
    key = wsdb.lookup(state, db=db4).key
    with sqlite3.connect(db4) as conn:
        (parent,) = conn.execute("select parent from class_rows where n=4 and c=4 and rep=?", (key,)).fetchone()
    db = damaged_copy(db4, tmp_path, "delete from class_rows where n=4 and c=4 and rep=?", (parent,))
    res = run("lookup", state, "--db", db)
    assert res.exit_code == 1 and res.stdout == ""
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and f"class {parent}" in lines[0] and "wsdb verify --n 4 --c 4" in lines[0]


def test_a_missing_class_of_a_complete_tree_is_damage(db4, tmp_path, states):
    key = wsdb.lookup(format_state(states[0]), db=db4).key
    db = damaged_copy(db4, tmp_path, "delete from class_rows where n=4 and c=3 and rep=?", (key,))
    with pytest.raises(DamagedError, match=f"class {key} is missing from the complete tree"):
        wsdb.lookup(format_state(states[0]), db=db)


def test_a_hole_in_a_partial_tree_is_not_taken_for_distance(tmp_path):
    # a deleted row of a partial tree would answer "more than D"; its
    # neighbours inside the tree give it away
    db = tmp_path / "partial.sqlite"
    wsdb.build(4, 3, db=db, max_depth=5)
    with sqlite3.connect(db) as conn:
        (rep,) = conn.execute("select rep from class_rows where n=4 and c=3 and depth=5 limit 1").fetchone()
        conn.execute("delete from class_rows where n=4 and c=3 and rep=?", (rep,))
    from wsdb.engine import get_engine

    eng = get_engine(N, C)
    cells = eng.layout.decode(np.array([[rep]], np.uint64))[0]
    with pytest.raises(DamagedError, match=f"class {rep} is missing"):
        wsdb.lookup(format_state(cells), db=db)


MORE = {
    "a row duplicated under another key": "insert into class_rows select n, c, root, puzzle_id, rep + 1, depth, "
    "parent, orbit_size from class_rows where n=4 and c=3 and rep=? "
    "and rep + 1 not in (select rep from class_rows where n=4 and c=3)",
    "the class rows dropped": "drop view classes; drop table class_rows",
    "the builds dropped": "drop table builds",
    "the view dropped": "drop view classes",
    "a levels row deleted": "delete from levels where n=4 and c=3 and depth = (select depth from class_rows "
    "where n=4 and c=3 and rep=?)",
}


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(damage=st.sampled_from(sorted({**DAMAGES, **MORE})), pick=st.integers(0, 14_000))
def test_random_damage_never_answers_wrong(db4, tmp_path_factory, brute, states, damage, pick):
    # a row chosen at random, damaged in a way chosen at random: every lookup either
    # answers right (checked by brute force and replayed here) or says, in one line, why not
    sql = {**DAMAGES, **MORE}[damage]
    with sqlite3.connect(db4) as conn:
        reps = [r for (r,) in conn.execute("select rep from class_rows where n=4 and c=3 and depth > 1 order by rep")]
    rep = reps[pick % len(reps)]
    db = tmp_path_factory.mktemp("damage") / "d.sqlite"
    shutil.copy(db4, db)
    with sqlite3.connect(db) as conn:
        conn.executescript(sql.replace("?", str(rep)))
    distance = brute(N, C).distance
    try:
        answers = wsdb.lookup_many([format_state(x) for x in states], db=db)
    except wsdb.WsdbError as e:
        assert "\n" not in str(e)
        return
    for cells, ans in zip(states, answers):
        assert ans.distance == distance(cells)
        grid = cells.reshape(N, N)
        for move in ans.moves:
            grid = slide(grid, move)
        assert solved(grid)
