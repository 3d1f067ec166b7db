"""Move algebra (wsdb/puzzle/moves.py): names, inverses, simplification,
and the pruning table that every search relies on."""

import numpy as np
import pytest

from wsdb.errors import WsdbError
from wsdb.puzzle import moves, wrapslide


def test_unknown_move_names():
    for bad in ["X1", "T0", "T4", "T", "1T"]:
        with pytest.raises(WsdbError, match="unknown move"):
            moves.index(4, bad)
    assert moves.index(4, "t3") == moves.index(4, "T3")


@pytest.mark.parametrize("n", [4, 6, 8])
def test_names_indices_and_families_agree(n):
    perms, names = moves.slide_moves(n)
    fam = moves.families(n)
    for m, name in enumerate(names):
        assert moves.index(n, name) == m
        assert moves.FAMILIES[fam[m]] == name[0]
    assert moves.of_families(n, moves.HORIZONTAL).tolist() == [m for m, x in enumerate(names) if x[0] in "TB"]


def test_simplify_keeps_the_permutation():
    rng = np.random.default_rng(2)
    for n in (4, 6, 8):
        p = wrapslide(n, 2)
        for _ in range(30):
            seq = rng.integers(0, len(p.moves), 12).tolist()
            short = moves.simplify(n, seq)
            assert len(short) <= len(seq)
            assert (moves.permutation_of(p.moves, short) == moves.permutation_of(p.moves, seq)).all()
    assert moves.simplify(6, [0, 4]) == []  # T1 T5 cancel
    assert moves.simplify(6, [0, 5, 1]) == [2, 5]  # T1 B1 T2 -> T3 B1


def test_invert_undoes():
    p = wrapslide(6, 2)
    seq = [0, 7, 13, 19, 3]
    perm = moves.permutation_of(p.moves, seq + moves.invert(6, seq))
    assert (perm == np.arange(36)).all()


def test_pruned_sequences_reach_every_state_as_fast():
    """Breadth-first over raw 4x4 cell permutations: with the pruning table,
    the set reached within d moves is the set reached without it."""
    p = wrapslide(4, 2)
    start = tuple(range(16))
    free = {start}
    pruned = {(start, moves.START)}
    for _ in range(4):
        free |= {tuple(np.asarray(s)[m]) for s in free for m in p.moves}
        pruned |= {
            (tuple(np.asarray(s)[p.moves[m]]), int(p.move_family[m]))
            for s, f in pruned
            for m in range(len(p.moves))
            if not p.blocked[f, p.move_family[m]]
        }
        assert {s for s, _ in pruned} == free


def test_a_move_with_thousands_of_digits_is_one_line():
    # int() of 5,000 digits raised ValueError (Python's digit limit): a traceback
    import pytest
    from wsdb.errors import WsdbError
    from wsdb.puzzle.moves import index

    with pytest.raises(WsdbError, match="unknown move") as e:
        index(4, "T" + "1" * 5000)
    assert len(str(e.value)) < 200
