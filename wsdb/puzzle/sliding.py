"""The sliding-tile puzzle (F. Berrier, 2022; docs/puzzles.md): a board of
``rows`` x ``cols`` cells holds tiles 1..rows*cols-1 and one blank; a move
slides a tile next to the blank into it. Solved: the tiles in reading
order, the blank last (bottom right).

Unlike the other puzzles, which moves are possible depends on the state
(where the blank is), so the puzzle is not a fixed set of cell
permutations and the class builder does not apply; it is data of another
shape (the board's adjacency), counted by the ranked census
(:func:`wsdb.engine.ranking.Ranking.of`, one byte per arrangement).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..errors import InputError
from .text import DISTINCT, parse_tiles, state_texts

BLANK = "_"
MAX_CELLS = 12  # 12! = 479,001,600 arrangements, one byte each
#: A move is named by the way its tile goes: the tile above the blank slides
#: down (D), the one below up (U), the one left of it right (R), the one
#: right of it left (L), in the order of :attr:`SlidingPuzzle.adjacency`.
MOVE_NAMES = ("D", "U", "R", "L")


@dataclass(frozen=True)
class SlidingPuzzle:
    """The sliding-tile puzzle on ``rows`` x ``cols``."""

    rows: int
    cols: int
    name: str = "sliding"
    #: its moves depend on the state, so the class builder does not apply: it is
    #: counted and stored whole through the ranked table (one byte a state)
    ranked_only: bool = True
    roots: tuple[str, ...] = ()  # one goal, no kinds of root
    subgame: bool = False  # every tile distinct
    every_arrangement: bool = False  # half of them reach the goal
    interchangeable: int = 1  # no labels may be swapped: every tile is distinct

    def __post_init__(self):
        if not (2 <= self.rows and 2 <= self.cols and self.rows * self.cols <= MAX_CELLS):
            raise InputError(
                f"sliding puzzle {self.rows}x{self.cols}: expected at least 2 rows and 2 columns "
                f"and at most {MAX_CELLS} cells"
            )

    @property
    def ncells(self) -> int:
        return self.rows * self.cols

    @property
    def n(self) -> int:
        return self.rows

    @property
    def c(self) -> int:
        """The number of labels (every tile and the blank): how a stored
        tree files the board beside its rows (``n``)."""
        return self.ncells

    @property
    def move_names(self) -> tuple[str, ...]:
        return MOVE_NAMES

    @property
    def maps(self) -> np.ndarray:
        """The identity only: the goal has no symmetry that keeps the blank's corner."""
        return np.arange(self.ncells)[None]

    @property
    def group_order(self) -> int:
        return 1

    def slide(self, cells: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """(states after move k, whether move k is possible) for (S, N)
        label cells: the tile next to the blank in direction k
        (:attr:`adjacency`'s order, named :data:`MOVE_NAMES`) slides into it."""
        cells = np.asarray(cells)
        rows = np.arange(len(cells))
        blank = np.argmax(cells == self.ncells - 1, axis=1)
        tile = self.adjacency[blank, k]
        ok = tile >= 0
        out = cells.copy()
        out[rows[ok], blank[ok]] = cells[rows[ok], tile[ok]]
        out[rows[ok], tile[ok]] = self.ncells - 1
        return out, ok

    @property
    def symbols(self) -> str:
        """Tiles 1..9, A, B, ... in order, the blank last."""
        return DISTINCT[: self.ncells - 1] + BLANK

    @property
    def goal(self) -> str:
        return self.format(np.arange(self.ncells))

    @property
    def board(self) -> str:
        """The board and what it holds, as a picture's panel names it."""
        return f"{self.rows}x{self.cols}, {self.ncells - 1} tiles"

    @property
    def label(self) -> str:
        return f"sliding {self.rows}x{self.cols} {self.goal}"

    @property
    def states(self) -> int:
        """Arrangements from which the goal can be reached: half of all
        (the permutation's parity, plus the blank's distance from its
        home, is a constant of the moves)."""
        return math.factorial(self.ncells) // 2

    @property
    def arrangements(self) -> int:
        """Every arrangement of the tiles and the blank, of which half can
        be solved (:attr:`states`)."""
        return math.factorial(self.ncells)

    @cached_property
    def adjacency(self) -> np.ndarray:
        """(cells, 4) the cells next to each cell (up, down, left, right), -1 off the board."""
        out = np.full((self.ncells, 4), -1, dtype=np.int64)
        for cell in range(self.ncells):
            r, j = divmod(cell, self.cols)
            for k, (dr, dj) in enumerate(((-1, 0), (1, 0), (0, -1), (0, 1))):
                if 0 <= r + dr < self.rows and 0 <= j + dj < self.cols:
                    out[cell, k] = (r + dr) * self.cols + j + dj
        return out

    @property
    def solved(self) -> np.ndarray:
        """The goal as label cells (label k = the tile whose home is cell k)."""
        return np.arange(self.ncells)[None]

    def parse(self, text: str) -> np.ndarray:
        """A state written as rows of symbols (the blank ``_``), as label
        cells (:func:`wsdb.puzzle.text.parse_tiles`)."""
        return parse_tiles(self, text)

    def format(self, cells) -> str:
        """Label cells as text, rows joined by '/' (:func:`wsdb.puzzle.text.state_texts`)."""
        return state_texts(self, np.asarray(cells)[None])[0]
