"""Uniformly random states of another puzzle, drawn from its complete
stored tree.

Wrapslide's states are every arrangement of its colours, so a random
permutation of the cells draws one (:func:`wsdb.puzzle.random_states`). The
other puzzles' moves may reach only some arrangements (Rube-ish 3x3: the
even permutations, half of them), and which ones is what their tree
records. So a state is drawn in two steps, both uniform: a class with
probability proportional to its orbit size, then one of the puzzle's
symmetry maps applied to its representative. Every state of a class is hit
by the same number of maps (the class's stabiliser), so every reachable
state is equally likely.
"""
from __future__ import annotations

import numpy as np

from ..engine import puzzle_engine
from ..errors import WsdbError
from ..puzzle import Puzzle
from .lookup import tree_root
from .store import Store


class TreeSampler:
    """Draws uniformly random reachable states of ``puzzle`` from its
    complete tree in the database (classes held in memory)."""

    def __init__(self, puzzle: Puzzle, db=None, store: Store | None = None):
        store = store if store is not None else Store.open(db)
        root = tree_root(puzzle)
        build = store.require_build(puzzle.n, puzzle.c, root, puzzle.name)
        if not build["complete"]:
            raise WsdbError(f"the {puzzle.label} tree stops at depth {build['height']}: random states are "
                            "drawn from a complete tree (build it without --max-depth)")
        eng = puzzle_engine(puzzle)
        reps, _, _, orbits = store.load(puzzle.n, puzzle.c, eng.layout, root, puzzle=puzzle.name)
        self.puzzle = puzzle
        self.cells = eng.decode(reps)
        self.ends = np.cumsum(orbits)     # class k holds states ends[k-1] .. ends[k]-1

    @property
    def states(self) -> int:
        """How many states the puzzle reaches from its goal."""
        return int(self.ends[-1])

    def draw(self, count: int, rng: np.random.Generator) -> np.ndarray:
        """``count`` uniformly random reachable states, (count, N) label
        cells; successive draws from one Generator continue one stream."""
        # one number per state, so the stream does not depend on how draws are chunked
        state, g = np.divmod(rng.integers(0, self.states * len(self.puzzle.maps), count), len(self.puzzle.maps))
        picks = np.searchsorted(self.ends, state, side="right")
        return np.take_along_axis(self.cells[picks], self.puzzle.maps[g], axis=1)
