"""States of distinct pieces numbered by their place in the puzzle's group,
so that a table of one byte per state replaces a table of states.

A puzzle whose goal has a distinct label on every cell has as many states
as its group has elements; for Rubik's Slide 4x4 hard mode that is
8!^2 = 1,625,702,400, which a sorted array of 8-byte keys (13 GB) or the
builder's class levels could not hold, but 1.6 GB of bytes can. The index
follows the block system of :func:`wsdb.puzzle.blocks.best_blocks` (for
that puzzle the two checkerboard colours, which every move swaps), and is
halved when every move is an even permutation; the kernels are in
:mod:`.rank_kernels`. The sliding-tile puzzle's arrangements are numbered
the same way as one block, its moves applied to the unranked state (they
depend on where the blank is).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..errors import InputError
from ..puzzle import Puzzle
from ..puzzle.blocks import all_even, best_blocks, table_size
from ..puzzle.sliding import SlidingPuzzle
from . import packed_kernels as pk
from . import rank_kernels as rk


@dataclass(eq=False)
class Ranking:
    """The numbering of one puzzle's states: block layout and table size."""

    puzzle: Puzzle | SlidingPuzzle
    blocks: np.ndarray  # (m, s) the cells of each block
    cell_block: np.ndarray  # (n,) the block of each cell
    cell_pos: np.ndarray  # (n,) a cell's place in its block
    home: np.ndarray  # (labels,) the goal cell of each label
    fact: np.ndarray  # factorials 0..max(m, s)
    halve: bool  # every state even: the last block's rank halved
    size: int  # indices 0..size-1
    reachable: int  # states the goal can reach, where known in advance (else size)

    @classmethod
    def of(cls, puzzle: Puzzle | SlidingPuzzle) -> "Ranking":
        """The ranking of ``puzzle``, whose goal must have distinct labels;
        the sliding puzzle's arrangements are ranked as one block."""
        n = puzzle.ncells
        if isinstance(puzzle, SlidingPuzzle):
            size = math.factorial(n)
            return cls._laid_out(puzzle, np.arange(n)[None], np.arange(n), False, size, puzzle.states)
        if puzzle.c != n:
            raise InputError(
                f"{puzzle.label}: a ranked table needs distinct pieces (a goal with "
                f"{n} different symbols); use the class census for coloured goals"
            )
        blocks = np.array(best_blocks(puzzle.moves), dtype=np.int64)
        if blocks.shape[1] > MAX_BLOCK:
            raise InputError(
                f"{puzzle.label}: its moves keep no blocks smaller than {blocks.shape[1]} cells: "
                f"a ranked table needs blocks of at most {MAX_BLOCK}"
            )
        even = all_even(puzzle.moves)
        home = np.empty(n, dtype=np.int64)
        home[puzzle.solved[0]] = np.arange(n)
        size = table_size(blocks.tolist(), even)
        return cls._laid_out(puzzle, blocks, home, even and blocks.shape[1] >= 2, size, size)

    @classmethod
    def _laid_out(
        cls, puzzle, blocks: np.ndarray, home: np.ndarray, halve: bool, size: int, reachable: int
    ) -> "Ranking":
        cell_block = np.empty(puzzle.ncells, dtype=np.int64)
        cell_pos = np.empty(puzzle.ncells, dtype=np.int64)
        for k, cells in enumerate(blocks):
            cell_block[cells] = k
            cell_pos[cells] = np.arange(len(cells))
        fact = np.array([math.factorial(k) for k in range(max(blocks.shape) + 1)], dtype=np.int64)
        return cls(puzzle, blocks, cell_block, cell_pos, home, fact, halve, size, reachable)

    def rank(self, states: np.ndarray) -> np.ndarray:
        """Indices of states given as label cells, shape (K, n) or (n,)."""
        states = np.asarray(states)
        at = np.ascontiguousarray(self.home[states.reshape(-1, self.puzzle.ncells)])  # one layout, one compile
        out = rk.rank_many(at, self.blocks, self.cell_block, self.cell_pos, self.fact, self.halve)
        return out if states.ndim == 2 else out[0]

    def unrank(self, indices) -> np.ndarray:
        """States (label cells, uint8) of an array of indices."""
        idx = np.atleast_1d(np.asarray(indices, dtype=np.int64))
        if idx.size and (idx.min() < 0 or idx.max() >= self.size):
            raise InputError(f"index out of range: expected 0 to {self.size - 1:,}")
        at = rk.unrank_many(idx, self.puzzle.ncells, self.blocks, self.fact, self.halve)
        labels = self.puzzle.solved[0]
        out = labels[at].astype(np.uint8)
        return out if np.ndim(indices) else out[0]

    @cached_property
    def tables(self) -> tuple[np.ndarray, ...]:
        """Each move's action on the index's digits (:func:`.rank_kernels.move_tables`)."""
        assert not isinstance(self.puzzle, SlidingPuzzle), "its moves depend on the state: no tables"
        moves = self.puzzle.moves
        # indexing can lay these out either way; the kernels take one layout (one compile)
        src = np.ascontiguousarray(self.cell_block[moves[:, self.blocks[:, 0]]])  # (M, m)
        if (self.cell_block[moves[:, self.blocks]] != src[:, :, None]).any():
            raise ValueError("the blocks are not a block system of the moves")
        pos = np.ascontiguousarray(self.cell_pos[moves[:, self.blocks]])  # (M, m, s)
        digit, arrangement, parity, arr_parity = rk.move_tables(self.blocks, src, pos, self.fact)
        return digit, arrangement, src, parity, arr_parity

    def neighbours(self, indices) -> np.ndarray:
        """(K, M) the index each move leads to from each index."""
        digit, arrangement, src, parity, arr_parity = self.tables
        idx = np.atleast_1d(np.asarray(indices, dtype=np.int64))
        return rk.neighbours_many(idx, digit, arrangement, src, parity, arr_parity, self.halve)

    def find(self, table: np.ndarray, depth: int, k: int) -> np.ndarray:
        """Up to k states (label cells) at ``depth`` in ``table``, the first by index."""
        return self.unrank(rk.first_with_value(table, depth, k))

    def grow(self, table: np.ndarray, depth: int, backward: bool) -> int:
        """Mark the states at distance depth+1 in ``table`` (see
        :func:`.rank_kernels.grow_level`) and return how many there are."""
        if isinstance(self.puzzle, SlidingPuzzle):
            rk.grow_sliding(
                table, depth, backward, self.puzzle.adjacency, self.blocks, self.cell_block, self.cell_pos, self.fact
            )
        else:
            rk.grow_level(table, depth, backward, *self.tables, self.halve)
        return int(rk.count_value(table, depth + 1))

    @property
    def arrangement_span(self) -> int:
        """Indices per arrangement of the blocks (the leading digit's unit)."""
        return self.size // math.factorial(len(self.blocks))

    def arrangement(self, index: int) -> int:
        """The blocks' arrangement of an index (its leading digit)."""
        return index // self.arrangement_span

    def arrangements_after(self, arrangements: set[int]) -> set[int]:
        """The arrangements one move leads to from any of ``arrangements``
        (on Rubik's Slide 4x4 hard mode every move swaps the two blocks, so
        a level's states all share one arrangement, the other level's the
        other)."""
        return {int(a) for a in self.tables[1][:, sorted(arrangements)].ravel()}

    def grow_packed(self, words: np.ndarray, arrangements: set[int], backward: bool) -> int:
        """Mark the next level in a two-bit table (:func:`.packed_kernels.grow_packed`),
        scanning only the indices with one of ``arrangements`` (the current
        level's forwards, the next level's backwards); returns its size."""
        span = self.arrangement_span
        spans = np.array([[a * span, (a + 1) * span] for a in sorted(arrangements)], dtype=np.int64)
        return int(pk.grow_packed(words, spans, backward, *self.tables, self.halve))


UNSEEN = rk.UNSEEN
#: Largest block: a move's digit table has s! entries per block (10!: 14.5 MB).
MAX_BLOCK = 10
