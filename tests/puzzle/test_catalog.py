"""Every puzzle by name (wsdb/puzzle/catalog.py), and the definitions'
moves against the documents' own descriptions of them."""

import numpy as np
import pytest

from wsdb.errors import WsdbError
from wsdb.puzzle.catalog import NAMES, get_puzzle
from wsdb.puzzle.rotate2x2 import rotate2x2
from wsdb.puzzle.rubeish import rubeish


def from_cycles(cycles, size=16):
    """The document's cycle notation (the piece in a cycle's first cell
    moves to the next) as ``new[i] = old[p[i]]``, cells numbered from 1."""
    p = np.arange(size)
    for cyc in cycles:
        for a, b in zip(cyc, cyc[1:] + cyc[:1]):
            p[b - 1] = a - 1
    return p


@pytest.mark.parametrize("mode", ["easy", "hard"])
def test_rubiks_slide_moves_are_the_documents_cycles(mode, published):
    cyc = published["rubiks_slide"]["cycles_4x4"]
    p = get_puzzle(f"rubiks-slide-{mode}", 4)
    for name, cycles in (("R", cyc["R"]), ("U", cyc["U"]), ("C", cyc[f"C_{mode}"])):
        assert (p.moves[p.move_index(name)] == from_cycles(cycles)).all(), name


def test_rubeish_rotates_one_row_or_column():
    p = rubeish(3)
    grid = np.arange(9).reshape(3, 3)
    row = p.apply(grid.ravel(), ["r2+1"]).reshape(3, 3)
    assert row.tolist() == [[0, 1, 2], [5, 3, 4], [6, 7, 8]]
    col = p.apply(grid.ravel(), ["c3+2"]).reshape(3, 3)
    assert col.tolist() == [[0, 1, 5], [3, 4, 8], [6, 7, 2]]
    assert len(p.moves) == 12  # the article's 12 distinct rotations


def test_rotate2x2_turns_one_block_as_the_document_shows():
    # the document's first step: (0,0,F) turns the top-left block anticlockwise
    p = rotate2x2(3)
    after = p.apply(np.arange(1, 10), ["0,0,F"]).reshape(3, 3)
    assert after.tolist() == [[2, 5, 3], [1, 4, 6], [7, 8, 9]]
    assert len(p.moves) == 8


def test_every_name_builds():
    for name in NAMES:
        p = get_puzzle(name, 3 if name == "sliding" else 4, c=3 if name == "wrapslide" else None)
        assert p.name == name


@pytest.mark.parametrize(
    "args, fragment",
    [
        (("sokoban", 3), "unknown puzzle"),
        (("rubeish", 1), "expected n from 2"),
        (("rubeish", 6), "give a --goal"),
        (("wrapslide", 4, None, "12/34"), "--goal is for the other puzzles"),
    ],
)
def test_bad_requests_are_refused(args, fragment):
    with pytest.raises(WsdbError, match=fragment):
        get_puzzle(*args)
