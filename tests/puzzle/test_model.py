"""The puzzle as data (wsdb/puzzle/model.py): moves, solved states, state
counts, random states."""

import math

import numpy as np
import pytest

from wsdb.puzzle import random_states, wrapslide


def test_moves_follow_the_rules_table():
    p = wrapslide(4, 4)
    grid = np.arange(16).reshape(4, 4)
    for k in range(1, 4):
        t = p.apply(grid.ravel(), [f"T{k}"]).reshape(4, 4)
        assert (t[:2] == np.roll(grid[:2], -k, axis=1)).all() and (t[2:] == grid[2:]).all()
        b = p.apply(grid.ravel(), [f"B{k}"]).reshape(4, 4)
        assert (b[2:] == np.roll(grid[2:], -k, axis=1)).all() and (b[:2] == grid[:2]).all()
        lft = p.apply(grid.ravel(), [f"L{k}"]).reshape(4, 4)
        assert (lft[:, :2] == np.roll(grid[:, :2], -k, axis=0)).all() and (lft[:, 2:] == grid[:, 2:]).all()
        r = p.apply(grid.ravel(), [f"R{k}"]).reshape(4, 4)
        assert (r[:, 2:] == np.roll(grid[:, 2:], -k, axis=0)).all() and (r[:, :2] == grid[:, :2]).all()


@pytest.mark.parametrize("n", [4, 6, 8])
def test_move_count_and_inverses(n):
    p = wrapslide(n, 2)
    assert len(p.moves) == 4 * (n - 1)
    start = np.arange(n * n)
    for fam in "TBLR":
        for k in range(1, n):
            assert (p.apply(start, [f"{fam}{k}", f"{fam}{n - k}"]) == start).all()
    for m in range(len(p.moves)):
        assert (p.apply(start, [m, int(p.move_inverse[m])]) == start).all()


@pytest.mark.parametrize("n, c, solved", [(4, 2, 4), (4, 3, 12), (4, 4, 24), (6, 3, 12), (8, 4, 24)])
def test_solved_states(n, c, solved):
    p = wrapslide(n, c)
    assert len(p.solved) == solved
    assert len({s.tobytes() for s in p.solved}) == solved
    for s in p.solved:  # every quadrant monochrome
        g = s.reshape(n, n)
        h = n // 2
        assert all(len(np.unique(g[a : a + h, b : b + h])) == 1 for a in (0, h) for b in (0, h))
        assert p.is_solved(s)


def test_one_move_from_solved_stays_solved_only_by_half_a_turn():
    # sliding a half by n/2 swaps two quadrants; any other slide mixes them
    p = wrapslide(6, 4)
    for m, name in enumerate(p.move_names):
        assert p.is_solved(p.apply(p.solved[0], [m])) == (name[1:] == "3")


def test_state_counts_match_the_thesis(thesis):
    for grid, by_c in thesis["states"].items():
        n = int(grid[0])
        for c, published in by_c.items():
            ours = wrapslide(n, int(c)).states
            if isinstance(published, str):
                assert math.isclose(ours, float(published), rel_tol=1e-3)
            else:
                assert ours == published


def test_random_states_are_reproducible_arrangements_of_the_colours():
    p = wrapslide(6, 3)
    a, b = random_states(p, 50, seed=7), random_states(p, 50, seed=7)
    assert (a == b).all() and not (a == random_states(p, 50, seed=8)).all()
    assert all(sorted(np.bincount(s).tolist()) == sorted(p.counts) for s in a)


def test_random_states_continue_one_stream_across_calls():
    p = wrapslide(4, 4)
    rng = np.random.default_rng(3)
    chunks = np.concatenate([random_states(p, 7, rng), random_states(p, 5, rng)])
    assert (chunks == random_states(p, 12, 3)).all()


# chi-square critical value, 6 degrees of freedom, p = 0.001 (any table: 22.458)
CHI2_6_999 = 22.458


def chi_square(depths: np.ndarray, expected_share: np.ndarray) -> float:
    observed = np.bincount(depths, minlength=len(expected_share))
    expected = expected_share * len(depths)
    return float(((observed - expected) ** 2 / expected).sum())


def test_random_states_are_uniform_by_depth(brute):
    """20,000 draws of 4x4 two-colour states: their depths follow the exact
    states-per-depth counts (7 depths, 6 degrees of freedom)."""
    b = brute(4, 2)
    share = np.array(b.states) / sum(b.states)
    depths = np.array([b.distance(x) for x in random_states(wrapslide(4, 2), 20_000, seed=2026)])
    assert chi_square(depths, share) < CHI2_6_999


def test_the_uniformity_test_rejects_random_walks(brute):
    # the same test on 4-move random walks from solved must fail: it can tell
    b = brute(4, 2)
    p = wrapslide(4, 2)
    rng = np.random.default_rng(1)
    walks = [p.apply(p.solved[rng.integers(4)], rng.integers(0, len(p.moves), 4)) for _ in range(20_000)]
    depths = np.array([b.distance(x) for x in walks])
    assert chi_square(depths, np.array(b.states) / sum(b.states)) > CHI2_6_999


def test_a_merged_grid_is_the_image_of_the_finer_one():
    from wsdb.errors import WsdbError
    from wsdb.puzzle.model import merged

    fine = wrapslide(6, 3)
    coarse = merged(fine, "12")
    assert coarse.counts == (18, 18) and coarse.c == 2
    # its goal: two whole quadrants of each colour, any two (written from the rules)
    quads = (np.arange(36) // 6 >= 3) * 2 + (np.arange(36) % 6 >= 3)
    expected = {tuple(np.isin(quads, pair) * 1) for pair in [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]}
    assert {tuple(s) for s in coarse.solved.tolist()} == expected
    assert coarse.interchangeable == 2  # 18 cells each: a state and its swap are alike
    assert "1+2 merged" in coarse.label
    # every solved state's image is solved, and moves commute with merging
    image = np.array([0, 0, 1], np.uint8)
    for s in fine.solved:
        assert coarse.is_solved(image[s])
    s = random_states(fine, 1, seed=3)[0]
    assert (image[fine.apply(s, ["T2", "L1"])] == coarse.apply(image[s], ["T2", "L1"])).all()
    assert merged(wrapslide(6, 4), "12").counts == (18, 9, 9)
    assert merged(wrapslide(6, 4), "12").interchangeable == 1
    for bad in ("1", "123", "14", "ab", "11"):
        with pytest.raises(WsdbError, match="--merge"):
            merged(fine, bad)
