"""The sliding-tile puzzle's definition (wsdb/puzzle/sliding.py)."""

import math

import numpy as np
import pytest

from wsdb.errors import WsdbError
from wsdb.puzzle.sliding import SlidingPuzzle


def test_board_and_goal():
    p = SlidingPuzzle(2, 3)
    assert p.goal == "123/45_"
    assert p.states == math.factorial(6) // 2
    # corners have two neighbours, edge middles three; adjacency is symmetric
    assert (p.adjacency >= 0).sum(axis=1).tolist() == [2, 3, 2, 2, 3, 2]
    for a in range(6):
        for b in p.adjacency[a]:
            if b >= 0:
                assert a in p.adjacency[b]
                assert abs(a // 3 - b // 3) + abs(a % 3 - b % 3) == 1


def test_parse_and_format_round_trip():
    p = SlidingPuzzle(3, 3)
    cells = p.parse("867/254/3_1")
    assert cells.tolist() == [7, 5, 6, 1, 4, 3, 2, 8, 0]
    assert p.format(cells) == "867/254/3_1"
    assert p.format(p.solved[0]) == p.goal == "123/456/78_"


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("867/254/3_", "expected 3 rows of 3 symbols"),
        ("867/254/311", "must hold each of '12345678_' once"),
        ("", "empty state"),
    ],
)
def test_bad_states_are_refused(text, fragment):
    with pytest.raises(WsdbError, match=fragment):
        SlidingPuzzle(3, 3).parse(text)


@pytest.mark.parametrize("rows, cols", [(1, 4), (4, 4), (2, 7)])
def test_boards_outside_the_table_are_refused(rows, cols):
    with pytest.raises(WsdbError, match="at most 12 cells"):
        SlidingPuzzle(rows, cols)


def test_labels_are_home_cells():
    p = SlidingPuzzle(2, 2)
    assert np.array_equal(p.solved[0], np.arange(4))
    assert p.symbols == "123_"
