"""A tree's identity (wsdb/puzzle/tree_key.py): what a build row is filed
under, made from a puzzle object or a stored row and compared whole."""

import pytest

from wsdb.errors import WsdbError
from wsdb.puzzle import wrapslide
from wsdb.puzzle.catalog import describe, get_puzzle, stored_puzzle
from wsdb.puzzle.sliding import SlidingPuzzle
from wsdb.puzzle.tree_key import TreeKey


def test_a_wrapslide_tree_grows_from_every_solved_state_unless_asked():
    assert TreeKey.of(wrapslide(4, 3)) == TreeKey("wrapslide", 4, 3, "all") == TreeKey.wrapslide(4, 3)
    assert TreeKey.of(wrapslide(4, 3), "single").root == "single"
    with pytest.raises(WsdbError, match="unknown root 'some': expected one of all, single"):
        TreeKey.of(wrapslide(4, 3), "some")


def test_another_puzzles_tree_is_filed_under_its_goal():
    p = get_puzzle("rubeish", 3, goal="aab/bcc/abc")
    assert TreeKey.of(p) == TreeKey("rubeish", 3, 3, p.goal)
    assert TreeKey.of(SlidingPuzzle(2, 3)) == TreeKey("sliding", 2, 6, "123/45_")
    with pytest.raises(WsdbError, match="--root is Wrapslide's"):
        TreeKey.of(p, "all")


@pytest.mark.parametrize(
    "puzzle", [wrapslide(6, 4), get_puzzle("rotate2x2", 3), SlidingPuzzle(3, 4)], ids=lambda p: p.label
)
def test_a_key_read_back_from_its_row_is_the_same_key_and_names_the_same_puzzle(puzzle):
    key = TreeKey.of(puzzle)
    assert TreeKey.from_row(dict(key.row, height=3, complete=False)) == key
    back = stored_puzzle(key)
    assert (back.name, back.n, back.c, back.goal, back.label) == (
        puzzle.name,
        puzzle.n,
        puzzle.c,
        puzzle.goal,
        puzzle.label,
    )
    assert len({key, TreeKey.from_row(key.row)}) == 1  # frozen and hashable: a dict or set key


def test_the_build_command_a_message_names_makes_that_tree():
    assert describe(TreeKey.wrapslide(6, 3)) == ("6x6 3-colour", "wsdb build --n 6 --c 3")
    assert describe(TreeKey.wrapslide(4, 4, "single"))[1] == "wsdb build --n 4 --c 4 --root single"
    assert describe(TreeKey.of(SlidingPuzzle(2, 5)))[1] == "wsdb build --puzzle sliding --n 2 --m 5"
