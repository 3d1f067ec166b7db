"""Two-colour states numbered as subsets of cells, for the two-bit census
of a grid too big for the class builder: 6x6 with 18 cells of each colour
has C(36, 18) = 9,075,135,300 states, 1.1 GB at two bits a state when a
state and its colour swap share an index (:mod:`.subset_kernels`). The
table keeps each state's distance mod 3, so shortest paths can be read
from it after the census.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..errors import InputError
from ..puzzle import Puzzle
from . import subset_kernels as sk
from .compiling import read_only

#: Indices scanned at once by :meth:`SubsetRanking.level` (a byte each).
LEVEL_BLOCK = 1 << 27


def word_cells(words, ncells: int) -> np.ndarray:
    """Which cells each cell word holds: booleans, one row of ``ncells``
    per word (the inverse of packing cells into a word)."""
    return (np.asarray(words, dtype=np.uint64)[..., None] >> np.arange(ncells, dtype=np.uint64)) & np.uint64(1) == 1


def _symmetries(maps) -> np.ndarray:
    """The cell maps of a group of symmetries as the kernels read them."""
    return sk.move_tables(np.ascontiguousarray(maps, dtype=np.int64))


@dataclass(eq=False)
class SubsetRanking:
    """The numbering of a two-colour puzzle's states by the cells of colour 0."""

    puzzle: Puzzle
    k: int  # cells of colour 0
    halved: bool  # a state and its colour swap share one index
    size: int  # indices 0..size-1
    reachable: int  # states the goal reaches (every arrangement is a state)

    @classmethod
    def of(cls, puzzle: Puzzle) -> "SubsetRanking":
        n = puzzle.ncells
        if puzzle.c != 2 or n > 8 * sk.BYTES:
            raise InputError(f"{puzzle.label}: a subset census needs two colours on at most {8 * sk.BYTES} cells")
        k = puzzle.counts[0]
        goal = {tuple(s) for s in puzzle.solved.tolist()}
        halved = 2 * k == n and all(tuple(1 - np.array(s)) in goal for s in goal)
        size = math.comb(n - 1, k) if halved else math.comb(n, k)
        return cls(puzzle, k, halved, size, size * (2 if halved else 1))

    @property
    def per_index(self) -> int:
        """States an index stands for."""
        return 2 if self.halved else 1

    @cached_property
    def tables(self) -> tuple:
        n = self.puzzle.ncells
        binom = sk.binomials(n)
        last = np.uint64(1 << (n - 1)) if self.halved else np.uint64(0)
        full = np.uint64((1 << n) - 1)
        return binom, sk.move_tables(self.puzzle.moves), sk.rank_tables(n, binom), last, full

    def cell_words_of(self, states: np.ndarray) -> np.ndarray:
        """The cell words of states (colour 0 set), swapped where halved."""
        states = np.asarray(states).reshape(-1, self.puzzle.ncells)
        weights = np.uint64(1) << np.arange(self.puzzle.ncells, dtype=np.uint64)
        out = ((states == 0) * weights).sum(axis=1, dtype=np.uint64)
        if self.halved:
            _, _, _, last, full = self.tables
            out = np.where(out & last, ~out & full, out)
        return out

    def rank(self, states: np.ndarray) -> np.ndarray:
        """Indices of states given as colour cells, shape (K, n) or (n,)."""
        out = sk.rank_many(self.cell_words_of(states), self.tables[2])
        return out if np.ndim(states) == 2 else out[0]

    def unrank(self, indices) -> np.ndarray:
        """States (colour cells, uint8) of indices: colour 0 on the cells of
        the index's subset (of a halved numbering, the swap without the last cell)."""
        idx = np.atleast_1d(np.asarray(indices, dtype=np.int64))
        if idx.size and (idx.min() < 0 or idx.max() >= self.size):
            raise InputError(f"index out of range: expected 0 to {self.size - 1:,}")
        words = sk.unrank_many(idx, self.k, self.puzzle.ncells, self.tables[0])
        out = (~word_cells(words, self.puzzle.ncells)).astype(np.uint8)
        return out if np.ndim(indices) else out[0]

    def roots(self) -> np.ndarray:
        """The goal's indices (distinct: a halved numbering joins swaps)."""
        return np.unique(self.rank(self.puzzle.solved))

    def grow(self, words: np.ndarray, depth: int, backward: bool) -> int:
        """Mark the states at distance depth+1 (:func:`.subset_kernels.grow_mod3`);
        how many indices they are."""
        binom, P, R, last, full = self.tables
        return int(sk.grow_mod3(words, self.size, depth, backward, self.k, self.puzzle.ncells, binom, P, R, last, full))

    @staticmethod
    def codes(words: np.ndarray, indices: np.ndarray) -> np.ndarray:
        """The two-bit code of each index (its distance mod 3, 3: unseen)."""
        indices = np.asarray(indices, dtype=np.int64)
        return (words[indices // sk.FIELDS] >> (2 * (indices % sk.FIELDS)).astype(np.uint64)) & np.uint64(3)

    def cell_words(self, indices: np.ndarray) -> np.ndarray:
        """The cell words (colour 0 set) of indices."""
        return sk.unrank_many(np.asarray(indices, dtype=np.int64), self.k, self.puzzle.ncells, self.tables[0])

    def level(self, words: np.ndarray, depth: int, maps: np.ndarray, progress=None) -> np.ndarray:
        """The cell words of the states exactly ``depth`` from the goal, one
        for each orbit under the cell maps ``maps`` (a group; its least word),
        read from a finished census table ``words``
        (:func:`.subset_kernels.least_coded`, then each candidate's distance
        walked down, :func:`.subset_kernels.distances_of`: a code holds the
        distance only mod 3). ``progress(done, size)`` after each block."""
        binom, P, R, last, full = self.tables
        words = read_only(words)
        S = _symmetries(maps)
        found = []
        for lo in range(0, self.size, LEVEL_BLOCK):
            hi = min(self.size, lo + LEVEL_BLOCK)
            flags = sk.least_coded(words, lo, hi, depth % 3, self.k, self.puzzle.ncells, binom, S, last, full)
            for bit in (1, 2):
                idx = np.flatnonzero(flags & bit) + lo
                if len(idx):
                    cells = sk.unrank_many(idx, self.k, self.puzzle.ncells, binom)
                    found.append(cells if bit == 1 else ~cells & full)
            if progress is not None:
                progress(hi, self.size)
        cells = np.concatenate(found) if found else np.zeros(0, dtype=np.uint64)
        return cells[sk.distances_of(words, cells, P, R, last, full) == depth]

    def orbits(self, cells: np.ndarray, maps: np.ndarray) -> np.ndarray:
        """Of ``cells``, words of a whole level (every image under the cell
        maps ``maps`` among them), one for each orbit: its least word, as
        :meth:`level` reads them."""
        return cells[sk.least_of(np.ascontiguousarray(cells, dtype=np.uint64), _symmetries(maps))]
