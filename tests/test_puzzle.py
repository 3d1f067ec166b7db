"""Parsing, formatting, moves and the goal (wsdb/puzzle.py, SPEC §1-§2)."""
import math

import numpy as np
import pytest

from wsdb.errors import WsdbError
from wsdb.puzzle import format_state, parse_state, wrapslide


@pytest.mark.parametrize("text", [
    "1212/3434/1243/3421", "1212,3434,1243,3421", "1212 3434 1243 3421",
    "1212\n3434\n1243\n3421\n", "1212343412433421", "ABAB/CDCD/ABDC/CDBA",
])
def test_parse_forms_agree(text):
    puzzle, cells = parse_state(text)
    assert (puzzle.n, puzzle.c) == (4, 4)
    assert format_state(cells) == "1212/3434/1243/3421"


def test_big_colour_is_last_whatever_its_symbol():
    # c = 3: the symbol with 2q cells becomes colour 3; c = 2: the 3q one colour 2
    _, cells = parse_state("aabb/aabb/ccbb/ccbb")
    assert format_state(cells) == "1133/1133/2233/2233"
    _, cells = parse_state("0001/0001/0000/0110")
    assert format_state(cells) == "2221/2221/2222/2112"


@pytest.mark.parametrize("text, fragment", [
    ("121", "3 cells"),
    ("1212/3434/1243/342", "15 cells"),
    ("1212/3434/1243/342x", "5 distinct symbols"),
    ("1111/1111/1111/1111", "1 distinct symbols"),
    ("1111/1222/3333/4444", "do not fit"),
    ("12123/43412/43342/1", "rows of lengths"),
    ("", "empty state"),
])
def test_bad_states_are_refused_with_a_reason(text, fragment):
    with pytest.raises(WsdbError, match=fragment):
        parse_state(text)


def test_moves_follow_the_spec_table():
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


@pytest.mark.parametrize("n, c, solved", [(4, 2, 4), (4, 3, 12), (4, 4, 24), (6, 3, 12), (8, 4, 24)])
def test_solved_states(n, c, solved):
    p = wrapslide(n, c)
    assert len(p.solved) == solved
    assert all(p.is_solved(s) for s in p.solved)
    assert len({s.tobytes() for s in p.solved}) == solved


def test_state_counts_match_the_thesis(thesis):
    for grid, by_c in thesis["states"].items():
        n = int(grid[0])
        for c, published in by_c.items():
            ours = wrapslide(n, int(c)).states
            if isinstance(published, str):
                assert math.isclose(ours, float(published), rel_tol=1e-3)
            else:
                assert ours == published


def test_unknown_move_names():
    p = wrapslide(4, 4)
    for bad in ["X1", "T0", "T4", "T", "1T"]:
        with pytest.raises(WsdbError, match="unknown move"):
            p.move_index(bad)
    assert p.move_index("t3") == p.move_index("T3")
