"""Training states for a learned guide: random walks from the solved states
and uniformly drawn states (DeepCubeA's recipe, Agostinelli et al. 2019:
states reached by walks of random length from the goal, so that every
distance up to the walks' length is seen).

A walk never makes a move the search's pruning table forbids after the
last one (``Puzzle.blocked``: no move of the family just moved, nor the
commuting orders counted twice), so it does not undo itself. Its length is
an upper bound on the distance of the state it ends on, which the
training's targets use (:mod:`.training`). Pure numpy, vectorised across
walks; every draw comes from the caller's Generator, so a seed gives the
same states everywhere.
"""

from __future__ import annotations

import numpy as np

from ..puzzle import Puzzle
from ..puzzle.model import random_states

#: the upper bound given to a drawn (not walked) state: none
UNBOUNDED = np.iinfo(np.int32).max


def walk_states(puzzle: Puzzle, count: int, longest: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """``count`` states, each the end of a pruned random walk of a length
    drawn uniformly from 0..``longest`` starting at a solved state drawn
    uniformly; returns (states (count, N) uint8, walk lengths)."""
    lengths = rng.integers(0, longest + 1, count)
    states = puzzle.solved[rng.integers(0, len(puzzle.solved), count)].copy()
    last = np.full(count, puzzle.blocked.shape[0] - 1)  # the start row: any move may follow
    allowed = ~puzzle.blocked[:, puzzle.move_family]  # (F+1, M): moves allowed after each family
    for step in range(longest):
        going = lengths > step
        pick = rng.random((count, len(puzzle.moves))) * allowed[last]
        moves = pick.argmax(axis=1)
        moved = np.take_along_axis(states, puzzle.moves[moves], axis=1)
        states = np.where(going[:, None], moved, states)
        last = np.where(going, puzzle.move_family[moves], last)
    return states.astype(np.uint8), lengths.astype(np.int32)


def training_states(
    puzzle: Puzzle, count: int, longest: int, drawn_share: float, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """A batch: random walks (:func:`walk_states`) and, where every
    arrangement is a state (Wrapslide, thesis (3.1)), a ``drawn_share`` of
    states drawn uniformly, the distribution the solver is asked about,
    whose upper bound is :data:`UNBOUNDED`."""
    drawn = int(round(count * drawn_share)) if puzzle.every_arrangement else 0
    states, bounds = walk_states(puzzle, count - drawn, longest, rng)
    if drawn:
        states = np.concatenate([states, random_states(puzzle, drawn, rng)])
        bounds = np.concatenate([bounds, np.full(drawn, UNBOUNDED, np.int32)])
    return states, bounds
