"""Other puzzles as data (wsdb/puzzle/define.py): moves with their
inverses, symmetries found from the moves and the goal (their goals and
states as text: tests/puzzle/test_text.py)."""

import numpy as np
import pytest

from wsdb.puzzle.define import define, symmetries, torus_maps
from wsdb.puzzle.rubeish import rubeish
from wsdb.puzzle.rubiks_slide import rubiks_slide
from wsdb.puzzle.symmetry import dihedral_maps


def test_every_move_has_its_inverse_among_the_moves():
    for p in (rubeish(3), rubiks_slide(4, "hard"), rubiks_slide(3, "easy")):
        for m, inv in enumerate(p.move_inverse):
            assert (p.moves[m][p.moves[inv]] == np.arange(p.ncells)).all()


def test_moves_with_one_permutation_are_kept_once():
    # on 2x2, one step right is one step left (the document's R = R^-1)
    p = rubiks_slide(2, "easy")
    assert len({m.tobytes() for m in p.moves}) == len(p.moves) == 4
    assert "R'" not in p.move_names and "U'" not in p.move_names


def test_a_move_without_its_inverse_is_refused():
    cycle = np.array([1, 2, 0, 3])  # a 3-cycle whose inverse is not given
    with pytest.raises(ValueError, match="inverse"):
        define("x", 2, [cycle], ["A"], "12/34")


def test_kept_symmetries_preserve_moves_and_goal():
    # rows of one colour each: the mirror and the vertical translations keep
    # them, the quarter turn does not
    p = rubeish(3, "111/222/333")
    assert 1 < len(p.maps) < len(torus_maps(3, dihedral_maps(3)))
    moves = {m.tobytes() for m in p.moves}
    for g in p.maps:
        assert (p.solved[0][g] == p.solved[0]).all()
        gi = np.argsort(g)
        assert all(gi[m[g]].tobytes() in moves for m in p.moves)
    assert (p.maps[0] == np.arange(9)).all()


def test_distinct_pieces_keep_only_the_identity():
    p = rubiks_slide(4, "hard")
    assert len(p.maps) == 1
    assert len(symmetries(p.moves, p.solved[0], dihedral_maps(4))) == 1
