"""The 2x2-rotation puzzle (I. and Y. Bosch, *Graphs and Puzzles*, 2020;
docs/puzzles.md): on an n x n board of coloured dots, any 2x2 block turns
a quarter clockwise or anticlockwise, each turn one move; the goal is a
chosen configuration."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .define import define
from .model import Puzzle
from .symmetry import dihedral_maps, inverse
from .text import distinct_goal


@lru_cache(maxsize=None)
def rotate2x2(n: int = 3, goal: str | None = None) -> Puzzle:
    """The puzzle on n x n (default goal: distinct dots in reading order).
    Moves ``X,Y,T`` / ``X,Y,F`` turn the block whose top-left dot is at
    column X, row Y (from 0) clockwise (T) or anticlockwise (F), the
    document's notation."""
    moves, names = [], []
    for y in range(n - 1):
        for x in range(n - 1):
            a, b, c, d = y * n + x, y * n + x + 1, (y + 1) * n + x + 1, (y + 1) * n + x  # clockwise
            p = np.arange(n * n)
            p[b], p[c], p[d], p[a] = a, b, c, d  # the dot at a moves on to b, b to c, ...
            moves += [p, inverse(p)]
            names += [f"{x},{y},T", f"{x},{y},F"]
    return define("rotate2x2", n, moves, names, goal or distinct_goal(n), dihedral_maps(n))
