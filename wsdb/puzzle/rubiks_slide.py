"""Rubik's Slide (the 4x4 thesis in docs/puzzles.md, after Jones, Shelton
and Weaverdyck): R moves every row one cell right, U every column one cell
up (both wrapping), C turns the board; each of R, U, C and their inverses
is one move.

* easy mode: C turns the whole board 90 degrees clockwise;
* hard mode: C moves every cell one step clockwise around its own ring
  (on 3x3 the 8 outer cells, the centre stays; on 4x4 the 12 outer cells
  and the inner 4).

The default goal numbers the cells 1..n^2 (the thesis' "16 unique
colours"); a goal with fewer symbols is one of its subgames.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .define import define
from .model import Puzzle
from .symmetry import dihedral_maps, inverse, quarter_turn
from .text import distinct_goal

MODES = ("easy", "hard")


def rings(n: int) -> list[list[int]]:
    """The board's rings, outermost first, each in clockwise order from its
    top-left cell (the centre of an odd board is a ring of one)."""
    out = []
    for k in range(n // 2 + n % 2):
        lo, hi = k, n - 1 - k
        if lo == hi:
            out.append([lo * n + lo])
            continue
        ring = (
            [lo * n + c for c in range(lo, hi)]
            + [r * n + hi for r in range(lo, hi)]
            + [hi * n + c for c in range(hi, lo, -1)]
            + [r * n + lo for r in range(hi, lo, -1)]
        )
        out.append(ring)
    return out


def ring_step(n: int) -> np.ndarray:
    """Hard mode's C: every cell one step clockwise around its ring."""
    p = np.arange(n * n)
    for ring in rings(n):
        for t, cell in enumerate(ring):
            p[ring[(t + 1) % len(ring)]] = cell  # the piece at ring[t] moves on to ring[t+1]
    return p


@lru_cache(maxsize=None)
def rubiks_slide(n: int = 4, mode: str = "easy", goal: str | None = None) -> Puzzle:
    """Rubik's Slide on n x n in ``mode`` ('easy' or 'hard'); moves R, R',
    U, U', C, C'."""
    r, j = np.divmod(np.arange(n * n), n)
    right = r * n + (j - 1) % n  # the piece left of a cell moves into it
    up = ((r + 1) % n) * n + j  # the piece below a cell moves into it
    turn = quarter_turn(n) if mode == "easy" else ring_step(n)
    moves = [right, inverse(right), up, inverse(up), turn, inverse(turn)]
    names = ["R", "R'", "U", "U'", "C", "C'"]
    return define(f"rubiks-slide-{mode}", n, moves, names, goal or distinct_goal(n), dihedral_maps(n))
