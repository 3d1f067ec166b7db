"""Uniformly random states drawn from a stored tree: every reachable state
of another puzzle, or every state at one distance from the goal.

Wrapslide's states are every arrangement of its colours, so a random
permutation of the cells draws one (:func:`wsdb.puzzle.random_states`). The
other puzzles' moves may reach only some arrangements (Rube-ish 3x3: the
even permutations, half of them), and which ones is what their tree
records; and which states lie at distance D is what any tree records
(levels 0..D of a partial tree are complete). So a state is drawn in two
steps, both uniform: a class with probability proportional to its orbit
size, then an element of the symmetry group (a geometric map, and a
relabelling of the interchangeable colours, thesis §3.4) applied to its
representative. Every state of a class is hit by the same number of group
elements (the class's stabiliser), so every state drawn from is equally
likely.
"""

from __future__ import annotations

import itertools

import numpy as np

from ..engine import puzzle_engine
from ..errors import NotBuiltError
from ..notices import step
from ..puzzle import Puzzle
from ..puzzle.catalog import describe
from ..puzzle.tree_key import TreeKey
from .store import Store


class TreeSampler:
    """Draws uniformly random states of ``puzzle`` from its tree in the
    database (classes held in memory): every reachable state from a
    complete tree, or with ``depth`` every state at that distance (a
    partial tree holds each of its levels whole)."""

    def __init__(self, puzzle: Puzzle, db=None, store: Store | None = None, depth: int | None = None):
        store = store if store is not None else Store.open(db)
        tree = TreeKey.of(puzzle)
        build = store.require_build(tree)
        if depth is None and not build["complete"]:
            raise NotBuiltError(
                f"the {puzzle.label} tree stops at depth {build['height']}: random states are "
                "drawn from a complete tree (build it without --max-depth)"
            )
        if depth is not None and not 0 <= depth <= build["height"]:
            if build["complete"]:
                deepest = "its God number" if puzzle.roots else "its deepest level"
            else:
                deepest = f"where it stops (`{describe(tree)[1]}{store.db_option} --max-depth {depth}` grows it)"
            raise NotBuiltError(
                f"no {puzzle.label} states at distance {depth} in the stored tree: expected 0 to "
                f"{build['height']}, {deepest}"
            )
        eng = puzzle_engine(puzzle)
        classes = (
            build["classes"]
            if depth is None
            else next((r["classes"] for r in store.level_rows(tree) if r["depth"] == depth), 0)
        )
        with step(
            f"reading the {puzzle.label} tree" + ("" if depth is None else f"'s level {depth}"), f"{classes:,} classes"
        ):
            if depth is None:
                reps, _, _, orbits = store.load(tree, eng.layout)
            else:
                reps, orbits = store.keys_and_orbits(tree, eng.layout, depth)
        self.puzzle, self.decode = puzzle, eng.decode
        self.reps = reps  # decoded only when drawn: a level may hold millions
        self.ends = np.cumsum(orbits)  # class k holds states ends[k-1] .. ends[k]-1
        k = puzzle.interchangeable
        # each relabelling of colours 0..k-1 as a lookup table over every label
        perms = np.array(list(itertools.permutations(range(k))), np.uint8).reshape(-1, k)
        rest = np.broadcast_to(np.arange(k, puzzle.c, dtype=np.uint8), (len(perms), puzzle.c - k))
        self.relabel = np.concatenate([perms, rest], axis=1)

    @property
    def states(self) -> int:
        """How many states the sampler draws from."""
        return int(self.ends[-1])

    def draw(self, count: int, rng: np.random.Generator) -> np.ndarray:
        """``count`` uniformly random states, (count, N) label cells;
        successive draws from one Generator continue one stream."""
        maps = self.puzzle.maps
        # one number per state, so the stream does not depend on how draws are chunked
        state, g = np.divmod(
            rng.integers(0, self.states * len(maps) * len(self.relabel), count), len(maps) * len(self.relabel)
        )
        perm, geo = np.divmod(g, len(maps))
        picks = np.searchsorted(self.ends, state, side="right")
        moved = np.take_along_axis(self.decode(self.reps[picks]), maps[geo], axis=1)
        return np.take_along_axis(self.relabel[perm], moved.astype(np.intp), axis=1)
