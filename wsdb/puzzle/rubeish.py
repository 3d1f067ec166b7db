"""The Rube-ish square (R. Harris, Overload 90, 2009; docs/puzzles.md):
an n x n board whose every row and every column rotates cyclically, by any
amount, each rotation one move. On 3x3 with nine distinct pieces the
states are the even permutations (A9, 181,440) and God's number is 8."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .define import define, torus_maps
from .model import Puzzle
from .symmetry import dihedral_maps
from .text import distinct_goal


@lru_cache(maxsize=None)
def rubeish(n: int = 3, goal: str | None = None) -> Puzzle:
    """The n x n Rube-ish square with the given goal (default: distinct
    pieces). Moves ``r{i}+{k}``: row i (1 = top) k cells right;
    ``c{j}+{k}``: column j (1 = left) k cells down; k = 1..n-1."""
    r, j = np.divmod(np.arange(n * n), n)
    moves, names = [], []
    for line in range(n):
        for k in range(1, n):
            moves.append(np.where(r == line, r * n + (j - k) % n, r * n + j))
            names.append(f"r{line + 1}+{k}")
    for line in range(n):
        for k in range(1, n):
            moves.append(np.where(j == line, ((r - k) % n) * n + j, r * n + j))
            names.append(f"c{line + 1}+{k}")
    return define("rubeish", n, moves, names, goal or distinct_goal(n), torus_maps(n, dihedral_maps(n)))
