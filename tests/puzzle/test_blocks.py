"""Block systems found from the moves (wsdb/puzzle/blocks.py)."""

import itertools
import math

import numpy as np

from wsdb.puzzle.blocks import all_even, best_blocks, parity, smallest_system, table_size
from wsdb.puzzle.catalog import get_puzzle


def preserved(moves, blocks):
    """Every move carries every block onto a whole block."""
    as_sets = {frozenset(b) for b in blocks}
    return all(frozenset(int(p[c]) for c in b) in as_sets for p in moves for b in blocks)


def test_rubiks_slide_hard_4x4_blocks_are_the_checkerboard(published):
    p = get_puzzle("rubiks-slide-hard", 4)
    blocks = best_blocks(p.moves)
    r, j = np.divmod(np.arange(16), 4)
    assert sorted(map(sorted, blocks)) == sorted([np.flatnonzero((r + j) % 2 == k).tolist() for k in (0, 1)])
    assert preserved(p.moves, blocks)
    # every move is even, so the states number 2 * 8!^2 / 2: the group's
    # published order, with no index left over
    assert all_even(p.moves)
    assert table_size(blocks, True) == math.factorial(8) ** 2 == published["rubiks_slide"]["groups"][5]["order"]


def test_a_puzzle_without_blocks_is_one_block():
    p = get_puzzle("rubeish", 3)
    assert best_blocks(p.moves) == [list(range(9))]
    assert table_size([list(range(9))], all_even(p.moves)) == math.factorial(9) // 2


def test_the_smallest_system_is_preserved_and_smallest():
    p = get_puzzle("rubiks-slide-easy", 4)
    for b in range(1, 16):
        blocks = smallest_system(p.moves, 0, b)
        assert preserved(p.moves, blocks)
        together = next(g for g in blocks if 0 in g)
        assert b in together
        # no preserved partition with 0 and b together has a smaller block:
        # splitting 0's block in two along any cell breaks preservation
        if len(together) > 2:
            for x in together:
                if x not in (0, b):
                    rest = [g for g in blocks if g is not together]
                    split = [[c for c in together if c != x], [x]] + rest
                    assert not preserved(p.moves, split)


def test_parity_against_inversions():
    rng = np.random.default_rng(5)
    for _ in range(50):
        q = rng.permutation(7)
        inversions = sum(q[i] > q[j] for i, j in itertools.combinations(range(7), 2))
        assert parity(q) == inversions % 2
