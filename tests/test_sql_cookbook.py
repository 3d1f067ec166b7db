"""docs/sql.md: every query on the page runs against a fresh database, and
its answer agrees with a number computed another way (the brute-force
search of tests/bruteforce.py, the multinomial, or a lookup)."""

import math
import re
import sqlite3
from pathlib import Path

import numpy as np
import pytest

import wsdb

PAGE = Path(__file__).resolve().parents[1] / "docs" / "sql.md"
pytestmark = pytest.mark.reads_files


def queries() -> dict[str, str]:
    blocks = re.findall(r"```sql\n(.*?)```", PAGE.read_text(), re.S)
    out = {}
    for block in blocks:
        name = re.match(r"-- name: (\w+)\n", block)
        assert name, f"a query in docs/sql.md has no '-- name:' line:\n{block}"
        out[name.group(1)] = block
    return out


@pytest.fixture(scope="module")
def sql(db4):
    conn = sqlite3.connect(db4)
    yield lambda name: conn.execute(queries()[name]).fetchall()
    conn.close()


def test_the_page_has_twelve_queries_and_each_is_tested():
    tested = {name[len("test_") :] for name in globals() if name.startswith("test_")}
    assert len(queries()) == 12 and set(queries()) <= tested


def test_god_numbers(sql, brute):
    rows = sql("god_numbers")
    assert [(n, c) for n, c, *_ in rows] == [(4, 2), (4, 3), (4, 4)]
    for n, c, god, complete, states, orbit_sum in rows:
        q = (n // 2) ** 2
        assert complete and orbit_sum == states == math.factorial(n * n) // (
            math.factorial(q) ** (c - 1) * math.factorial((5 - c) * q)
        )
        if c < 4:  # four colours: 63 M states, beyond the brute force here
            assert god == len(brute(4, c).states) - 1


def test_per_depth(sql, brute):
    b = brute(4, 3)
    assert sql("per_depth") == [(d, k, s) for d, (k, s) in enumerate(zip(b.classes, b.states))]


def test_states_at_depth(sql, brute):
    b = brute(4, 3)
    assert sql("states_at_depth") == [(b.classes[7], b.states[7])]


def test_antipodes(sql, brute):
    b = brute(4, 3)
    rows = sql("antipodes")
    assert len(rows) == b.classes[-1] and sum(size for _, size in rows) == b.states[-1]
    for grid, size in rows:
        cells = np.frombuffer(grid.replace("/", "").encode(), np.uint8) - ord("1")
        assert b.distance(cells) == len(b.states) - 1
        assert size == len({x.tobytes() for x in b.images(cells)})


def test_mean_distance(sql, brute):
    for n, c, over_states, over_classes in sql("mean_distance"):
        if c == 4:
            continue
        b = brute(n, c)
        depths = np.arange(len(b.states))
        assert over_states == pytest.approx((depths * b.states).sum() / sum(b.states))
        assert over_classes == pytest.approx((depths * b.classes).sum() / sum(b.classes))


def test_median_distance(sql, brute):
    depth = brute(4, 3).depth  # every state's distance
    assert sql("median_distance") == [(int(np.sort(depth)[(len(depth) - 1) // 2]),)]


def test_most_symmetric(sql, brute):
    b = brute(4, 3)
    sizes = np.unique(np.unique(b.canon, return_counts=True)[1])
    rows = sql("most_symmetric")
    assert rows[0][1] == sizes.min()
    for grid, size, depth, symmetries in rows:
        cells = np.frombuffer(grid.replace("/", "").encode(), np.uint8) - ord("1")
        assert size == len({x.tobytes() for x in b.images(cells)}) and size * symmetries == 64
        assert depth == b.distance(cells)


def test_symmetry_profile(sql, brute):
    b = brute(4, 3)
    _, class_sizes = np.unique(b.canon, return_counts=True)
    sizes, counts = np.unique(class_sizes, return_counts=True)
    assert sql("symmetry_profile") == [(int(s), int(k), int(s * k)) for s, k in zip(sizes, counts)]


def test_parent_chain(sql, brute, db4):
    b = brute(4, 3)
    rows = sql("parent_chain")
    assert [d for d, _ in rows] == list(range(len(b.states) - 1, -1, -1))  # an antipode, up to 0
    for depth, grid in rows:
        cells = np.frombuffer(grid.replace("/", "").encode(), np.uint8) - ord("1")
        assert b.distance(cells) == depth
    assert wsdb.lookup(rows[0][1], db=db4).distance == rows[0][0]


def test_pattern_histogram(sql, brute):
    b = brute(4, 3)
    reps, first = np.unique(b.canon, return_index=True)  # one row per class: its representative
    hist: dict[int, list[int]] = {}
    sizes = dict(zip(*np.unique(b.canon, return_counts=True)))
    for code, at in zip(reps, first):
        cells = b.decode(code).reshape(4, 4)
        if (cells[:2, :2] == 0).all():
            k = hist.setdefault(int(b.depth[at]), [0, 0])
            k[0] += 1
            k[1] += int(sizes[code])
    assert hist and sql("pattern_histogram") == [(d, k, s) for d, (k, s) in sorted(hist.items())]


@pytest.fixture(scope="module")
def runs(db4, tmp_path_factory):
    """Two runs on the same 4x4 three-colour states: exact (auto, the stored
    answers) and the thesis' heuristic."""
    import shutil

    from wsdb.solver.evaluate import evaluate

    path = tmp_path_factory.mktemp("runs") / "runs.sqlite"
    shutil.copy(db4, path)
    evaluate(4, 3, 12, seed=8, method="auto", db=path)
    evaluate(4, 3, 12, seed=8, method="thesis", db=path)
    conn = sqlite3.connect(path)
    yield path, lambda name: conn.execute(queries()[name]).fetchall()
    conn.close()


def test_solver_runs(runs):
    from wsdb.stats import solves

    path, sql = runs
    got = sql("solver_runs")
    figures = solves.run_summaries(path)
    assert [r[0] for r in got] == list(figures.run_id) == [1, 2]
    for (_run_id, n, c, method, states, mean, worst, gap, known, share, slowest), f in zip(got, figures.itertuples()):
        assert (n, c, method, states, known) == (4, 3, f.method, 12, 12)
        assert (mean, worst, gap, share, slowest) == pytest.approx(
            (f.mean_length, f.max_length, f.mean_gap_exact, f.share_optimal, f.max_seconds)
        )
    assert got[0][7] == 0 and got[0][9] == 1  # the stored answers are the exact distances


def test_solver_differences(runs):
    path, sql = runs
    rows = sql("solver_differences")
    for _idx, state, auto, thesis, exact in rows:
        assert auto == exact == wsdb.lookup(state, db=path).distance < thesis
